import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Migration } from 'kysely';
import type { AppContext } from './context';
import type { TokenAuthenticator } from './auth/tokens';
import type { DirectoryPasswords } from './auth/directory-passwords';
import type { EmailCodes } from './auth/email-codes';
import type { TrustedBrowsers } from './auth/trusted-browsers';
import type { ServerLocale, ServerMessages } from './i18n/index';
import type { CliCommand } from './cli/command';
import type { EventReceiver } from './events';
import type { FastifyRequest } from 'fastify';
import type { SignInMethods } from '../schemas/sign-in';
import type { CredentialKind } from '../schemas/credential-kinds';
import type { LastCredentialUse } from './auth/credential-uses';

/** Core services a slice may implement; the core reaches them through `AppContext`, never by importing the slice. */
export interface ServerProvides {
  /** Verifies personal access tokens for `auth: 'token'` routes (becomes `ctx.tokenAuth`). */
  tokenAuth?: (ctx: AppContext) => TokenAuthenticator;
  /** What the login page offers besides account and password (page config `signIn`; becomes `ctx.signInMethods`). */
  signInMethods?: (ctx: AppContext) => (req: FastifyRequest) => Promise<SignInMethods>;
  /**
   * Checks an account's password with the directory it signs in through (becomes `ctx.directoryPasswords`), so a
   * slice asking for the current password (an e-mail change) can ask a directory account for its directory's.
   */
  directoryPasswords?: (ctx: AppContext) => DirectoryPasswords;
  /**
   * Spends the codes mailed to an account's current address (becomes `ctx.emailCodes`), so a slice that needs that
   * proof (a first password) takes the code the mailing slice sent.
   */
  emailCodes?: (ctx: AppContext) => EmailCodes;
  /**
   * Lists and forgets the browsers the sign-in lockout trusts for an account (becomes `ctx.trustedBrowsers`), so the
   * security page shows them without importing the slice that marks them.
   */
  trustedBrowsers?: (ctx: AppContext) => TrustedBrowsers;
}

/**
 * The page a slice's `pageData` is asked for: its path (without trailing slashes, `pagePath`) and the language it is
 * rendered in (its texts' language).
 */
export interface PageDataRequest {
  path: string;
  locale: ServerLocale;
}

/**
 * The server half of a feature plugin as one slice: `plugins/<id>/server/index.ts` default-exports it.
 * The service core discovers slices by folder (see `server/plugin-loader.ts`) and never imports one.
 */
export interface ServerPlugin {
  /** The plugin id; equals the folder name under `plugins/`. */
  id: string;
  /** Its HTTP routes; mounted only when the edition's manifest lists the plugin. */
  routes?: FastifyPluginAsyncTypebox;
  /**
   * Its database migrations by name. Names are global (one Kysely bookkeeping table) and ordered with
   * the core's by name, so a new migration takes a number above every existing one.
   */
  migrations?: Record<string, Migration>;
  /** Its error codes with their texts in both languages (see `defineServerMessages`). */
  messages?: ServerMessages<string>;
  /** Its admin CLI commands. */
  cli?: CliCommand[];
  /** Core services it implements for the edition that mounts it. */
  provides?: ServerProvides;
  /** Removes its expired rows; run with the core's purge (at start and every 10 minutes) when mounted. */
  housekeeping?: (ctx: AppContext) => Promise<void>;
  /**
   * Looks for what is due (tokens about to expire…) and emits its events; run by the core's scheduler at start and
   * every few minutes on every instance, so it must be idempotent: give each event a `key`.
   */
  scheduled?: (ctx: AppContext) => Promise<void>;
  /**
   * What this slice's header items, sections and pages need for the first render of the page at `path` (the path
   * of the page asked for), computed with the rules of the calls it spares them; undefined when that page needs
   * nothing of it. Asked for every page a visitor opens, signed in or not (`req.session` tells): the data of a
   * signed-in page must check it. The service puts it in the page's bootstrap under the plugin id (`plugins.<id>`);
   * the web half seeds its stores with it and makes the call only when it is absent.
   */
  pageData?: (ctx: AppContext, req: FastifyRequest, path: string, page: PageDataRequest) => Promise<unknown>;
  /**
   * Receives every account event of the service (and of the admin CLI); e.g. the inbox stores a message. Only
   * slices the edition mounts receive in the service; the CLI hands events to every slice that has a receiver.
   */
  onEvent?: EventReceiver;
  /**
   * Revokes every credential this slice keeps for an account that its owner says was used by someone else ("this
   * wasn't me"): what an intruder may have made or learnt stops working at once. Answers what it revoked, by kind
   * (`token`, `packages-password`…), with a count of 0 when the account had none.
   */
  revokeCredentials?: (ctx: AppContext, userId: string) => Promise<RevokedCredentials>;
  /** Its credentials for the health section of the security page (issue 42): listed with their last use, revocable. */
  credentialHealth?: CredentialHealthSource;
}

/** One credential of an account as a slice reports it to the health section (issue 42). */
export interface CredentialHealthEntry {
  kind: CredentialKind;
  /** The token's or key's id; the account's id for the artifact password. */
  id: string;
  /** The name its owner gave it (the artifact account's username for the artifact password). */
  name: string;
  createdAt: number;
  expiresAt: number | null;
  /** Its last successful use (`ctx.credentialUses.lastUses`); null when never used. */
  lastUse: LastCredentialUse | null;
}

/** A slice's credentials for the security page's health section and its "revoke all stale". */
export interface CredentialHealthSource {
  /** The account's credentials this slice keeps. */
  list(ctx: AppContext, userId: string): Promise<CredentialHealthEntry[]>;
  /** Revokes these of the account's credentials (ids from `list`; others are ignored); answers how many went. */
  revoke(ctx: AppContext, userId: string, ids: readonly string[]): Promise<number>;
}

/** What a slice revoked for "this wasn't me": the kind of credential and how many. */
export interface RevokedCredentials {
  credential: string;
  count: number;
}

/** Declares a slice; an identity function that keeps the literal type (so typos in field names fail to compile). */
export function defineServerPlugin<T extends ServerPlugin>(def: T): T {
  return def;
}
