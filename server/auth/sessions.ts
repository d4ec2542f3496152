import crypto from 'node:crypto';
import type { CompiledQuery, Kysely } from 'kysely';
import type SQLite from 'better-sqlite3';
import type { Clock } from '../clock';
import type { DB } from '../db/schema';
import type { RequestSession, SessionUser } from '../context';
import { randomSecret, sha256 } from './random';
import { AppError } from '../errors';
import { keptUserAgent } from './user-agent';

/** Name of the session cookie on http (development, tests). */
export const SESSION_COOKIE = 'account_session';
/**
 * Name of the session cookie when PUBLIC_URL is https: the `__Host-` prefix makes browsers accept it only with
 * Secure, Path=/ and no Domain, so no sibling host or plain-http page can set or shadow it.
 */
export const SECURE_SESSION_COOKIE = '__Host-account_session';

/** The session cookie's name for a service served over https (`secure`) or not. */
export function sessionCookieName(secure: boolean): string {
  return secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
}
/** A session ends after this much inactivity. */
export const IDLE_TIMEOUT_MS = 30 * 60 * 1000;
/** A session ends this long after sign-in, active or not. */
export const ABSOLUTE_TIMEOUT_MS = 12 * 60 * 60 * 1000;
/** last_seen is written at most this often, so reads stay reads (idle precision is this interval). */
export const TOUCH_INTERVAL_MS = 60 * 1000;

/** Columns of `users` loaded with a session (everything but the password hash). */
export const sessionUserColumns = [
  'users.id',
  'users.username',
  'users.username_lower',
  'users.name',
  'users.email',
  'users.email_verified',
  'users.avatar',
  'users.language',
  'users.must_change_password',
  'users.current_org_id',
  'users.color_scheme',
  'users.created_at',
  'users.updated_at',
] as const;

/** How and from where a session was signed in, as the account's security page shows it. */
export interface SessionDetails {
  /** `password`, `ldap`, `ad`, or a third-party provider's id (`dingtalk`, `lark`, `wecom`…). */
  method: string;
  /** The browser's User-Agent header (kept cut to 512 characters). */
  userAgent?: string | null;
  /** The client address of the sign-in (then of the latest activity). */
  address?: string | null;
  /**
   * The second factor the sign-in answered (issue 41), or `passkey` for a passkey sign-in (both factors at once).
   * An account with a second factor gets no session without one: `create` refuses with 401 SecondFactorRequired.
   */
  secondFactor?: 'totp' | 'webauthn' | 'recovery' | 'passkey';
}

/** The longest sign-in method name a session keeps (the column's width). */
const SIGN_IN_METHOD_MAX = 32;
/** The longest client address a session keeps (the column's width; an IPv6 address is at most 45). */
const ADDRESS_MAX = 64;
const keptAddress = (address: string | null | undefined) => (address ? address.slice(0, ADDRESS_MAX) : null);

type LookupRow = SessionUser & {
  csrf_token: string;
  session_created_at: number;
  last_seen_at: number;
  proved_at: number;
};

/** Database-backed sessions: the cookie holds 256 random bits, the table holds only their SHA-256. */
export class SessionStore {
  private readonly lookup: CompiledQuery;
  private readonly fastLookup?: (idHash: string) => LookupRow | undefined;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
    sqlite?: SQLite.Database,
  ) {
    // The lookup runs on every request: compile it once and only swap the parameter.
    this.lookup = db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select([
        'sessions.csrf_token',
        'sessions.created_at as session_created_at',
        'sessions.last_seen_at',
        'sessions.proved_at',
        ...sessionUserColumns,
      ])
      .where('sessions.id_hash', '=', '')
      .compile();
    if (sqlite) {
      // Same SQL, run synchronously: a single-row read by primary key needs no async round trip.
      const stmt = sqlite.prepare<[string], LookupRow>(this.lookup.sql);
      this.fastLookup = (idHash) => stmt.get(idHash);
    }
  }

  /**
   * Starts a session for a user, noting how and from where (the security page shows it); returns the raw cookie value
   * (shown once) and the CSRF token.
   */
  async create(userId: string, details: SessionDetails): Promise<{ id: string; idHash: string; csrfToken: string }> {
    // Every sign-in ends here: an account its owner held ("this wasn't me") gets no session until an admin lifts it,
    // and an account with a second factor none until the sign-in answered it (whatever way in forgot to ask).
    const user = await this.db
      .selectFrom('users')
      .select((eb) => [
        'held_at',
        eb
          .or([
            eb.exists(
              eb
                .selectFrom('totp_factors')
                .select('totp_factors.user_id')
                .whereRef('totp_factors.user_id', '=', 'users.id')
                .where('totp_factors.confirmed_at', 'is not', null),
            ),
            eb.exists(
              eb
                .selectFrom('webauthn_credentials')
                .select('webauthn_credentials.id')
                .whereRef('webauthn_credentials.user_id', '=', 'users.id'),
            ),
          ])
          .as('has_factor'),
      ])
      .where('id', '=', userId)
      .executeTakeFirst();
    if (user?.held_at != null) throw new AppError(423, 'AccountHeld');
    // SQLite answers 0/1, PostgreSQL a boolean.
    if (user && Boolean(Number(user.has_factor)) && !details.secondFactor)
      throw new AppError(401, 'SecondFactorRequired');
    const id = randomSecret(32);
    const idHash = sha256(id);
    const csrfToken = randomSecret(32);
    const now = this.clock.now().getTime();
    await this.db
      .insertInto('sessions')
      .values({
        id_hash: idHash,
        user_id: userId,
        csrf_token: csrfToken,
        created_at: now,
        last_seen_at: now,
        // A sign-in is a proof (re-authentication): the session starts fresh.
        proved_at: now,
        handle: crypto.randomBytes(16).toString('hex'),
        user_agent: keptUserAgent(details.userAgent),
        address: keptAddress(details.address),
        method: details.method.slice(0, SIGN_IN_METHOD_MAX),
      })
      .execute();
    return { id, idHash, csrfToken };
  }

  /**
   * Resolves a cookie value to a live session (with its user), ending it when a timeout has passed. `address` (the
   * request's client address) is noted with the last activity, as often as that is written.
   */
  async load(rawId: string, address?: string): Promise<RequestSession | null> {
    if (!rawId || rawId.length > 100) return null;
    const idHash = sha256(rawId);
    const row = this.fastLookup
      ? this.fastLookup(idHash)
      : (await this.db.executeQuery({ ...this.lookup, parameters: [idHash] } as CompiledQuery<LookupRow>)).rows[0];
    if (!row) return null;
    const now = this.clock.now().getTime();
    if (now - row.last_seen_at >= IDLE_TIMEOUT_MS || now - row.session_created_at >= ABSOLUTE_TIMEOUT_MS) {
      await this.db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
      return null;
    }
    if (now - row.last_seen_at >= TOUCH_INTERVAL_MS) {
      await this.db
        .updateTable('sessions')
        .set(address ? { last_seen_at: now, address: keptAddress(address) } : { last_seen_at: now })
        .where('id_hash', '=', idHash)
        .where('last_seen_at', '<', now)
        .execute();
    }
    const { csrf_token, session_created_at, last_seen_at: _seen, proved_at, ...user } = row;
    return {
      idHash,
      csrfToken: csrf_token,
      createdAt: session_created_at,
      provedAt: Number(proved_at),
      user: user as SessionUser,
    };
  }

  /**
   * The session proved its owner again (re-authentication): the same row gets a new cookie value and `proved_at` =
   * now, every other column stays (the security page's handle, its sign-in method…). The CSRF token stays too: it is
   * no credential without the cookie, and the browser's other tabs of this session hold it (a new one would make
   * their next change fail until reloaded). Null when the session is gone (ended, or rotated by a parallel proof).
   */
  async prove(idHash: string): Promise<{ id: string; idHash: string; csrfToken: string; provedAt: number } | null> {
    const id = randomSecret(32);
    const next = { id_hash: sha256(id), proved_at: this.clock.now().getTime() };
    const row = await this.db
      .updateTable('sessions')
      .set(next)
      .where('id_hash', '=', idHash)
      .returning('csrf_token')
      .executeTakeFirst();
    if (!row) return null;
    return { id, idHash: next.id_hash, csrfToken: row.csrf_token, provedAt: next.proved_at };
  }

  /** Ends one session (logout, rotation at sign-in). */
  async destroy(idHash: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
  }

  /** Ends every session of a user but the one given (after a password change, "sign out the others"); how many. */
  async destroyOthers(userId: string, keepIdHash: string | null): Promise<number> {
    let q = this.db.deleteFrom('sessions').where('user_id', '=', userId);
    if (keepIdHash) q = q.where('id_hash', '!=', keepIdHash);
    const r = await q.executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  /** Removes sessions past either timeout; cheap housekeeping run now and then. */
  async purgeExpired(): Promise<void> {
    const now = this.clock.now().getTime();
    await this.db
      .deleteFrom('sessions')
      .where((eb) =>
        eb.or([eb('last_seen_at', '<=', now - IDLE_TIMEOUT_MS), eb('created_at', '<=', now - ABSOLUTE_TIMEOUT_MS)]),
      )
      .execute();
  }
}
