import { AsyncLocalStorage } from 'node:async_hooks';
import type { Kysely } from 'kysely';
import type { Clock } from './clock';
import type { Mailer } from './mail/index';
import type { ServerLocale } from './i18n/index';
import type { DB } from './db/schema';
import type { Lock } from './auth/lockout';
import type { CredentialKind, CredentialRefusal } from '../schemas/credential-kinds';

/**
 * Account events: what happened to an account that its owner (or an organisation's admins) should hear about.
 * Slices and the core *emit* them; a slice that keeps something of them (the inbox, the account's history)
 * *receives* them (`ServerPlugin.onEvent`). The emitter never knows who listens, so no slice imports another and an
 * edition without an inbox loses nothing.
 */

/** Who hears of an event: one account, or the members (or only the admins) of an organisation. */
export type EventAudience = { userId: string } | { orgId: string; role?: 'admin' };

/** A browser as a sign-in message names it; each part is null when the User-Agent does not tell it. */
export interface BrowserInfo {
  name: string | null;
  /** Major version, e.g. '131'. */
  version: string | null;
  /** Operating system, e.g. 'Windows'. */
  os: string | null;
}

/** What happened, with what the message needs to say it (no secrets: never a token value or a password). */
export type AccountEventBody =
  | { type: 'token.created'; name: string; expiresAt: number | null }
  | { type: 'token.expiring'; name: string; expiresAt: number; days: number }
  | { type: 'token.expired'; name: string; expiresAt: number }
  // Rotation and renewal (issue 42): a new secret for a token; the old one works until `oldStopsAt` (null: at once).
  | { type: 'token.regenerated'; name: string; expiresAt: number; oldStopsAt: number | null }
  // An expired token made again with its scopes; `dropped` names grants the catalogue no longer offers.
  | { type: 'token.recreated'; name: string; expiresAt: number; dropped: string[] }
  | { type: 'ssh-key.added'; name: string; fingerprint: string }
  | { type: 'ssh-key.expiring'; name: string; expiresAt: number; days: number }
  | { type: 'ssh-key.expired'; name: string; expiresAt: number }
  | { type: 'packages.password-reset' }
  | { type: 'password.changed'; how: 'settings' | 'recovery' | 'first-sign-in' }
  | { type: 'email.bound'; email: string }
  | { type: 'email.changed'; email: string }
  | { type: 'email.unbound'; email: string }
  | { type: 'avatar.changed' }
  | { type: 'sign-in.new-device'; address: string; browser: BrowserInfo }
  | { type: 'account.locked'; until: number; address: string; lock?: Lock }
  | { type: 'org.ip-whitelist-changed'; org: string; cidrs: string[] }
  | { type: 'org.licence-expiring'; org: string; expiresAt: number; days: number }
  // The organisation requires a second factor of its members (issue 41): refused without one from `enforcedFrom`.
  | { type: 'org.second-factor-required'; org: string; enforcedFrom: number; graceDays: number }
  | { type: 'org.notice'; org: string; title: string; body: string }
  // Written to the account's history (the security slice); the inbox shows none of these as messages.
  | { type: 'sign-in.succeeded'; method: string; factor?: 'totp' | 'webauthn' | 'recovery' }
  | { type: 'sign-in.failed'; method: string; reason: SignInFailure }
  | { type: 'account.unlocked'; by: 'admin' | 'time' }
  | { type: 'token.deleted'; name: string }
  | { type: 'ssh-key.deleted'; name: string }
  | { type: 'session.ended'; by: 'member' | 'not-me' | 'admin'; count: number }
  | { type: 'reauth.succeeded'; method: string }
  | { type: 'reauth.failed'; method: string; reason: SignInFailure }
  | { type: 'account.not-me'; locked: boolean; sessions: number; credentials: { credential: string; count: number }[] }
  // The second factor (issue 41): history, inbox and mail alike. `name` is a passkey's (null for the app).
  | { type: 'second-factor.added'; factor: 'totp' | 'webauthn'; name: string | null }
  | { type: 'second-factor.removed'; factor: 'totp' | 'webauthn' | 'all'; name: string | null; by: 'member' | 'admin' }
  | { type: 'recovery-codes.generated'; count: number }
  | { type: 'recovery-code.used'; left: number }
  // A credential presented outside the browser and refused (issue 42): history only, throttled by the recorder.
  | {
      type: 'credential.refused';
      credential: CredentialKind;
      /** The token's or key's name; null for the artifact password. */
      name: string | null;
      action: string;
      reason: CredentialRefusal;
    }
  // "Revoke all stale" on the security page's credential health (issue 42): how many of each kind went (history only).
  | { type: 'credentials.stale-revoked'; counts: { credential: CredentialKind | 'session'; count: number }[] };

/** Why a sign-in or a proof was refused (never which of name or password was wrong: the account is known here). */
export type SignInFailure =
  'wrong-password' | 'locked' | 'slider-failed' | 'directory-refused' | 'third-party-refused' | 'wrong-second-factor';

/** The type names of account events. */
export type AccountEventType = AccountEventBody['type'];

/** One account event as emitted. */
export type AccountEvent = AccountEventBody & {
  to: EventAudience;
  /**
   * Names the event once, for events a scheduler may find more than once (on every instance, after a restart):
   * a receiver keeps at most one message per key and recipient. Absent on events that happen once by nature.
   */
  key?: string;
};

/** What a receiver may use: the same in the service and in the admin CLI. */
export interface EventDeps {
  db: Kysely<DB>;
  clock: Clock;
  /** The service's mailer (the security slice mails security events); null where mail is not set up. */
  mailer: Mailer | null;
}

/**
 * The client of the request an event was emitted while handling (`noteEventsDuring`): where the account's history
 * says it happened. Null for events of the scheduler and the admin CLI, which act for no client.
 */
export interface EventOrigin {
  /** The client address (socket, or X-Forwarded-For from a trusted proxy). */
  address: string;
  /** The User-Agent header as sent; null when there was none. */
  userAgent: string | null;
  /** The language the request is answered in (a mail to an account without its own language uses it). */
  locale?: ServerLocale;
}

/**
 * Takes an event in (e.g. stores a message); may throw — the bus logs and goes on. Resolves true only when it kept
 * something its audience is shown as news (an inbox message): the caller's answer then says so (`x-account-events`),
 * and a receiver that only records (the account's history) does not make the web refresh its bell.
 */
export type EventReceiver = (deps: EventDeps, event: AccountEvent, origin: EventOrigin | null) => Promise<boolean>;

/** Where the bus reports a receiver that failed (the service's logger, or the CLI's stderr). */
export interface EventLog {
  warn(obj: object, msg: string): void;
}

/** One request as its events see it: where their audiences are noted, and its client. */
export interface EventScope {
  /** The audiences of the events that some receiver kept as news (see `EventReceiver`). */
  noted: EventAudience[];
  /** The request's client, handed to every receiver with each event. */
  origin: EventOrigin | null;
}

/** The request being handled while an event is emitted (see `noteEventsDuring`). */
const scope = new AsyncLocalStorage<EventScope>();

/**
 * Runs `fn` (the rest of one request's handling) so that every event emitted meanwhile carries the request's client
 * to the receivers and, when one kept it as news, adds its audience to `noted`: the answer can then tell the caller
 * that their action wrote to their inbox, and nobody had to say so by hand.
 */
export function noteEventsDuring(during: EventScope, fn: () => void): void {
  scope.run(during, fn);
}

/**
 * Delivers account events to the receivers of the mounted slices. Emitting never fails the action that caused
 * it: a receiver's failure is logged and the caller goes on (the password is changed either way).
 */
export class EventBus {
  constructor(
    private readonly deps: EventDeps,
    private readonly receivers: readonly EventReceiver[],
    private readonly log: EventLog,
  ) {}

  /** True when some slice listens; emitters may skip work (e.g. a scan) when nobody does. */
  get hasReceivers(): boolean {
    return this.receivers.length > 0;
  }

  /**
   * Hands the event, with its request's client (or `origin`, the client a gate or proxy reports for a call it makes
   * on that client's behalf), to every receiver; resolves when all are done, never rejects.
   */
  async emit(event: AccountEvent, origin?: EventOrigin): Promise<void> {
    const during = scope.getStore();
    const kept = await Promise.all(
      this.receivers.map((r) =>
        r(this.deps, event, origin ?? during?.origin ?? null).catch((err: unknown) => {
          this.log.warn({ err, event: event.type }, 'account event lost');
          return false;
        }),
      ),
    );
    // Told to the caller only where a slice kept it as news: a record alone (the history) is nothing to show.
    if (kept.some(Boolean)) during?.noted.push(event.to);
  }
}
