import type { FastifyRequest } from 'fastify';
import type { SignInMethods } from '../schemas/sign-in';
import type { Kysely } from 'kysely';
import type { EditionManifest } from '../schemas/edition';
import type { Clock } from './clock';
import type { AppConfig } from './config';
import type { DB } from './db/schema';
import type { DialectName } from './db/index';
import type { PasswordHasher } from './auth/passwords';
import type { Mailer } from './mail/index';
import type { ServerLocale } from './i18n/index';
import type { UsersTable } from './db/schema';
import type { SessionStore } from './auth/sessions';
import type { LoginLockout } from './auth/lockout';
import type { TokenAuthenticator } from './auth/tokens';
import type { DirectoryPasswords } from './auth/directory-passwords';
import type { EmailCodes } from './auth/email-codes';
import type { TrustedBrowsers } from './auth/trusted-browsers';
import type { RateLimiter } from './auth/rate-limit';
import type { SliderCaptcha } from './services/captcha/slider';
import type { SecondFactorService } from './auth/second-factor/index';
import type { EventBus } from './events';
import type { CredentialHealthSource, PageDataRequest, RevokedCredentials } from './plugin';
import type { CredentialUses } from './auth/credential-uses';

/** Shared services every route reaches through `app.ctx`, so plugins need no globals. */
export interface AppContext {
  config: AppConfig;
  clock: Clock;
  db: Kysely<DB>;
  dialect: DialectName;
  hasher: PasswordHasher;
  edition: EditionManifest;
  mailer: Mailer;
  /** True when cookies must carry `Secure` (PUBLIC_URL is https). */
  secureCookies: boolean;
  /** Database-backed sessions. */
  sessions: SessionStore;
  /** Failed sign-in counting and locks. */
  lockout: LoginLockout;
  /** Limits per client address and per account, counted in the database (shared by every instance). */
  rateLimits: RateLimiter;
  /** The server-verified slider captcha and its single-use passes. */
  captcha: SliderCaptcha;
  /**
   * The accounts' second factors (issue 41): authenticator app, passkeys, recovery codes. Answers to a challenge are
   * judged through `judgeFactor` (server/auth/second-factor/challenge.ts), which counts them in the lockout.
   */
  secondFactors: SecondFactorService;
  /**
   * Personal-access-token verification for `auth: 'token'` routes, provided by a slice the edition mounts
   * (access-tokens); null when none does, and then every token answers 401 TokenInvalid.
   */
  tokenAuth: TokenAuthenticator | null;
  /** The sign-in methods a login page offers (directories, third-party), from the login slice; null without it. */
  signInMethods: ((req: FastifyRequest) => Promise<SignInMethods>) | null;
  /** Directory accounts' passwords, judged by their directory (from the login slice); null without it. */
  directoryPasswords: DirectoryPasswords | null;
  /** Codes mailed to an account's current address (from the profile slice); null without it. */
  emailCodes: EmailCodes | null;
  /** The browsers the sign-in lockout trusts for an account (from the login slice); null without it. */
  trustedBrowsers: TrustedBrowsers | null;
  /** Account events (token created, password changed…) to the slices that receive them (the inbox). */
  events: EventBus;
  /** Every use of a token, SSH key or artifact password presented outside the browser (issue 42). */
  credentialUses: CredentialUses;
  /** The mounted slices' credentials for the health section (`ServerPlugin.credentialHealth`), by plugin id. */
  credentialSources: { id: string; source: CredentialHealthSource }[];
  /** The mounted slices' revocations for "this wasn't me" (`ServerPlugin.revokeCredentials`). */
  credentialRevokers: ((userId: string) => Promise<RevokedCredentials>)[];
  /** The mounted slices' first-render data of a page (`ServerPlugin.pageData`), by plugin id. */
  pageData: { id: string; load: (req: FastifyRequest, page: PageDataRequest) => Promise<unknown> }[];
}

/** The signed-in user as loaded with the session (one query), enough for most routes. */
export type SessionUser = Omit<UsersTable, 'password_hash' | 'held_at'>;

/** A live session attached to a request. */
export interface RequestSession {
  /** SHA-256 of the cookie value (the row key); never the cookie value itself. */
  idHash: string;
  csrfToken: string;
  createdAt: number;
  /** When this session last proved its owner (sign-in, re-authentication), epoch ms: sensitive routes need it recent. */
  provedAt: number;
  user: SessionUser;
}

/** Identity established by a personal access token (open API). */
export interface RequestToken {
  tokenId: string;
  scopes: string[];
  user: SessionUser;
}

/**
 * The organisation a request works in, once the tenant hook (server/http/tenant.ts) admitted the caller: a member,
 * from an address the IP whitelist allows, with licence and order valid.
 */
export interface RequestOrganization {
  id: string;
  name: string;
  logo: string | null;
  /** The caller's role there: organisation admins may see what members may not. */
  role: 'member' | 'admin';
  /**
   * Epoch ms from which the organisation refuses the caller for having no second factor: present only while its
   * grace lasts (the page warns), absent when none is required or the caller has one.
   */
  secondFactorDeadline?: number;
}

/**
 * How a route relates to organisations: `true` = it works in one (path param, else `x-tenant-id`, else the user's
 * current one) and the tenant hook checks it; `'manual'` = the handler names it (e.g. a body field) and calls
 * `enterOrganization`, `x-tenant-id` is ignored; `false` = personal, `x-tenant-id` is ignored even under /uiless/.
 */
export type OrgScope = boolean | 'manual';

/**
 * Who may call a route: anyone (session optional), a signed-in session, an API token, or `internal`: a front door of
 * the suite (the git gate, the artifact proxy) presenting INTERNAL_API_SECRET in `x-internal-secret`; cookies are never
 * read there, and without the secret configured such routes answer 404 (server/http/pipeline.ts).
 */
export type RouteAuth = 'public' | 'session' | 'token' | 'internal';

declare module 'fastify' {
  interface FastifyInstance {
    /** Shared services (database, clock, hasher, mailer…). */
    ctx: AppContext;
  }
  interface FastifyRequest {
    /** The session, when the request carries a valid session cookie. */
    session: RequestSession | null;
    /** The token identity on open-API routes. */
    token: RequestToken | null;
    /** Language for messages in this request's answer. */
    locale: ServerLocale;
    /** The organisation the request works in, checked by the tenant hook; null on personal calls or with none. */
    organization: RequestOrganization | null;
  }
  interface FastifyContextConfig {
    /** Required on every API route; checked at registration. */
    auth?: RouteAuth;
    /** Scope a token needs on `auth: 'token'` routes. */
    scope?: string;
    /**
     * 'xhr' = only X-Requested-With (sign-in has no session yet); 'form' = a browser form's POST, which can send
     * neither header: the route checks the session's CSRF token in the body itself (logout); default: both headers
     * on state changes.
     */
    csrf?: 'full' | 'xhr' | 'form';
    /**
     * A `session` route a user whose password must be changed first may call (the change itself, `me`); every other
     * session route answers them 403 PasswordChangeRequired, and their tokens are refused.
     */
    beforePasswordChange?: boolean;
    /** Organisation context (see OrgScope); `/uiless/` routes carrying `x-tenant-id` are checked unless `false`. */
    orgScoped?: OrgScope;
    /**
     * A sensitive `session` route (password, e-mail, a new credential, ending sessions…): it needs a proof given in
     * this session within the re-authentication window, else 403 `ReauthRequired` and nothing changes
     * (schemas/reauth.ts).
     */
    reauth?: boolean;
  }
}
