import type { Kysely } from 'kysely';
import type { Clock } from '../../../server/clock';
import type { DB } from '../../../server/db/schema';
import type { EventBus } from '../../../server/events';
import type { TrustedBrowserRecord } from '../../../server/auth/trusted-browsers';
import { AppError } from '../../../server/errors';
import { ABSOLUTE_TIMEOUT_MS, IDLE_TIMEOUT_MS } from '../../../server/auth/sessions';
import { describeBrowser } from '../../../server/auth/user-agent';
import type { SessionInfo, SessionList, TrustedBrowser } from '../contract';

/** What the session calls use: the service's database and clock (the admin CLI has the same). */
export interface SessionDeps {
  db: Kysely<DB>;
  clock: Clock;
}

/** The most sessions one account lists (newest first); ending the others ends every one, listed or not. */
export const SESSION_LIST_MAX = 200;

/** Turns a client address into an approximate place, or null (no local database, or not found). */
export type PlaceOf = (address: string) => string | null;

const iso = (ms: number) => new Date(ms).toISOString();

/** The timeouts as the list tells them. */
export const SESSION_TIMEOUTS = {
  idle_timeout_minutes: Math.round(IDLE_TIMEOUT_MS / 60_000),
  absolute_timeout_hours: Math.round(ABSOLUTE_TIMEOUT_MS / 3_600_000),
} as const;

/** The account's sessions still alive by both timeouts (a session past one is ended on its next use anyway). */
function liveSessions(deps: SessionDeps, userId: string) {
  const now = deps.clock.now().getTime();
  return deps.db
    .selectFrom('sessions')
    .where('user_id', '=', userId)
    .where('last_seen_at', '>', now - IDLE_TIMEOUT_MS)
    .where('created_at', '>', now - ABSOLUTE_TIMEOUT_MS);
}

/** One live session of an account as an admin or the page sees it (the cookie's digest stays here). */
export interface SessionRow {
  handle: string;
  id_hash: string;
  created_at: number;
  last_seen_at: number;
  user_agent: string | null;
  address: string | null;
  method: string;
}

/** The account's live sessions, newest first (at most `SESSION_LIST_MAX`). */
export async function sessionRows(deps: SessionDeps, userId: string): Promise<SessionRow[]> {
  return liveSessions(deps, userId)
    .select(['handle', 'id_hash', 'created_at', 'last_seen_at', 'user_agent', 'address', 'method'])
    .orderBy('created_at', 'desc')
    .orderBy('handle')
    .limit(SESSION_LIST_MAX)
    .execute();
}

/** When a session ends if idle from its last activity on: the earlier of the idle and the absolute timeout. */
export function sessionExpiry(row: Pick<SessionRow, 'created_at' | 'last_seen_at'>): number {
  return Math.min(row.last_seen_at + IDLE_TIMEOUT_MS, row.created_at + ABSOLUTE_TIMEOUT_MS);
}

/** A session as the page shows it; `currentIdHash` is the caller's own (its "this device"). */
export function toSessionInfo(row: SessionRow, currentIdHash: string | null, placeOf?: PlaceOf | null): SessionInfo {
  return {
    id: row.handle,
    browser: describeBrowser(row.user_agent).info,
    method: row.method,
    address: row.address,
    place: row.address && placeOf ? placeOf(row.address) : null,
    created_at: iso(row.created_at),
    last_seen_at: iso(row.last_seen_at),
    expires_at: iso(sessionExpiry(row)),
    current: row.id_hash === currentIdHash,
  };
}

/** The caller's sessions and the timeouts that end them. */
export async function listSessions(
  deps: SessionDeps,
  userId: string,
  currentIdHash: string,
  placeOf?: PlaceOf | null,
): Promise<SessionList> {
  const rows = await sessionRows(deps, userId);
  return { sessions: rows.map((r) => toSessionInfo(r, currentIdHash, placeOf)), ...SESSION_TIMEOUTS };
}

/**
 * Ends one of the account's sessions by its handle: it answers 401 on its next request, on any instance (every
 * request reads its session from the shared database). Another account's session answers 404 SessionNotFound
 * exactly as an unknown or ended one; the caller's own current session is refused (409 SessionIsCurrent: that one
 * ends by signing out). Emits `session.ended`.
 */
export async function endSession(
  deps: SessionDeps & { events: EventBus },
  userId: string,
  handle: string,
  currentIdHash: string | null,
  by: 'member' | 'not-me' | 'admin',
): Promise<number> {
  const row = await liveSessions(deps, userId).select('id_hash').where('handle', '=', handle).executeTakeFirst();
  if (!row) throw new AppError(404, 'SessionNotFound');
  if (row.id_hash === currentIdHash) throw new AppError(409, 'SessionIsCurrent');
  const r = await deps.db
    .deleteFrom('sessions')
    .where('user_id', '=', userId)
    .where('id_hash', '=', row.id_hash)
    .executeTakeFirst();
  // Ended meanwhile (by a parallel call, or its own sign-out): gone as if never found.
  if (Number(r.numDeletedRows) === 0) throw new AppError(404, 'SessionNotFound');
  await deps.events.emit({ type: 'session.ended', by, count: 1, to: { userId } });
  return 1;
}

/**
 * Ends every live session of the account but `keepIdHash` (the caller's; null = all of them, as the admin CLI may);
 * answers how many it ended (sessions already past a timeout are dead anyway and go with the purge). Emits
 * `session.ended` when it ended any.
 */
export async function endOtherSessions(
  deps: SessionDeps & { events: EventBus },
  userId: string,
  keepIdHash: string | null,
  by: 'member' | 'not-me' | 'admin',
): Promise<number> {
  const now = deps.clock.now().getTime();
  let q = deps.db
    .deleteFrom('sessions')
    .where('user_id', '=', userId)
    .where('last_seen_at', '>', now - IDLE_TIMEOUT_MS)
    .where('created_at', '>', now - ABSOLUTE_TIMEOUT_MS);
  if (keepIdHash) q = q.where('id_hash', '!=', keepIdHash);
  const count = Number((await q.executeTakeFirst()).numDeletedRows);
  if (count > 0) await deps.events.emit({ type: 'session.ended', by, count, to: { userId } });
  return count;
}

/** A trusted browser as the page shows it. */
export function toTrustedBrowser(r: TrustedBrowserRecord): TrustedBrowser {
  return {
    id: r.id,
    browser: r.browser,
    first_used_at: iso(r.firstUsedAt),
    last_used_at: iso(r.lastUsedAt),
    current: r.current,
  };
}
