import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { AccountEvent, EventDeps, EventOrigin } from '../../../server/events';
import type { AppContext } from '../../../server/context';
import { AppError } from '../../../server/errors';
import { hmac, serviceSecret, verifyHmac } from '../../../server/auth/secrets';
import { maskEmail } from '../../../server/services/accounts';
import { describeBrowser } from '../../../server/auth/user-agent';
import {
  HISTORY_DAYS,
  HISTORY_PAGE_DEFAULT,
  type Browser,
  type HistoryDetail,
  type HistoryEntry,
  type HistoryGroup,
  type HistoryKind,
  type HistoryPage,
} from '../contract';

/** One entry of an account's history (migration `067-account-history`); written once, never changed. */
export interface AccountHistoryTable {
  /** Ordered by time within one instance (see `historyId`), so entries of one millisecond keep their order. */
  id: string;
  user_id: string;
  /** When it happened, epoch ms. */
  at: number;
  /** `HISTORY_KINDS`. */
  kind: string;
  /** The filter's group of the kind (`HISTORY_GROUP_OF`), kept so each filter reads its own index. */
  kind_group: string;
  /** JSON of `HistoryDetail`: never a secret. */
  detail: string;
  /** The client address of the request during which it happened; null for the scheduler and the CLI. */
  address: string | null;
  /** JSON of the browser (`Browser`) that request came from; null without a request or a User-Agent. */
  browser: string | null;
}

declare module '../../../server/db/schema' {
  interface DB {
    account_history: AccountHistoryTable;
  }
}

/** What reading the history needs: the database and the clock (the service's, the CLI's, a bench's). */
export type HistoryDeps = Pick<EventDeps, 'db' | 'clock'>;

/**
 * The filter's group of each kind: a proof counts with the sign-ins, "this wasn't me" with the sessions it ended, a
 * recovery code used with the factors (it changes how many are left; the sign-in it made is a sign-in entry too).
 */
export const HISTORY_GROUP_OF: Record<HistoryKind, HistoryGroup> = {
  'sign-in.succeeded': 'sign-in',
  'sign-in.failed': 'sign-in',
  'reauth.succeeded': 'sign-in',
  'reauth.failed': 'sign-in',
  'account.locked': 'lock',
  'account.unlocked': 'lock',
  'password.changed': 'password',
  'email.changed': 'email',
  'sign-in.new-device': 'device',
  'credential.created': 'credential',
  'credential.deleted': 'credential',
  'session.ended': 'session',
  'account.not-me': 'session',
  'second-factor.added': 'second-factor',
  'second-factor.removed': 'second-factor',
  'recovery-codes.generated': 'second-factor',
  'recovery-code.used': 'second-factor',
  // Issue 42: a refused use and "revoke all stale" are the credentials' own story.
  'credential.refused': 'credential',
  'credentials.stale-revoked': 'credential',
  'credential.regenerated': 'credential',
  'credential.recreated': 'credential',
};

const DAY_MS = 24 * 60 * 60 * 1000;

/** The oldest instant the history still shows (and keeps): `HISTORY_DAYS` before now. */
export function historySince(now: number): number {
  return now - HISTORY_DAYS * DAY_MS;
}

/**
 * What an account event adds to its owner's history, or null when it is none of the history's business (the
 * scheduler's expiry notices, an organisation's notices, an avatar). Only what the contract's detail names is kept:
 * a credential by its kind and name, an address masked, never a secret.
 */
export function historyEntryOf(event: AccountEvent): { kind: HistoryKind; detail: HistoryDetail } | null {
  switch (event.type) {
    case 'sign-in.succeeded':
      return {
        kind: event.type,
        detail: event.factor ? { method: event.method, factor: event.factor } : { method: event.method },
      };
    case 'reauth.succeeded':
      return { kind: event.type, detail: { method: event.method } };
    case 'sign-in.failed':
    case 'reauth.failed':
      return { kind: event.type, detail: { method: event.method, reason: event.reason } };
    case 'account.locked':
      return { kind: 'account.locked', detail: { until: new Date(event.until).toISOString() } };
    case 'account.unlocked':
      return { kind: 'account.unlocked', detail: { by: event.by } };
    case 'password.changed':
      return { kind: 'password.changed', detail: { how: event.how } };
    case 'email.bound':
    case 'email.changed':
      return { kind: 'email.changed', detail: { email: maskEmail(event.email) } };
    case 'email.unbound':
      // No new address: the entry says the address went, not which.
      return { kind: 'email.changed', detail: {} };
    case 'sign-in.new-device':
      return { kind: 'sign-in.new-device', detail: {} };
    case 'token.created':
      return { kind: 'credential.created', detail: { credential: 'token', name: event.name } };
    case 'ssh-key.added':
      return { kind: 'credential.created', detail: { credential: 'ssh-key', name: event.name } };
    case 'packages.password-reset':
      return { kind: 'credential.created', detail: { credential: 'packages-password' } };
    case 'token.deleted':
      return { kind: 'credential.deleted', detail: { credential: 'token', name: event.name } };
    case 'ssh-key.deleted':
      return { kind: 'credential.deleted', detail: { credential: 'ssh-key', name: event.name } };
    case 'session.ended':
      return { kind: 'session.ended', detail: { by: event.by, count: event.count } };
    case 'account.not-me':
      return { kind: 'account.not-me', detail: { count: event.sessions } };
    case 'second-factor.added':
      return {
        kind: event.type,
        detail: event.name === null ? { factor: event.factor } : { factor: event.factor, name: event.name },
      };
    case 'second-factor.removed':
      return {
        kind: event.type,
        detail:
          event.name === null
            ? { factor: event.factor, by: event.by }
            : { factor: event.factor, name: event.name, by: event.by },
      };
    case 'recovery-codes.generated':
      return { kind: event.type, detail: { count: event.count } };
    case 'recovery-code.used':
      return { kind: event.type, detail: { left: event.left } };
    case 'credential.refused': {
      const what = { credential: event.credential, action: event.action.slice(0, 300), refusal: event.reason };
      return { kind: event.type, detail: event.name === null ? what : { ...what, name: event.name } };
    }
    case 'credentials.stale-revoked':
      return { kind: event.type, detail: { revoked: event.counts } };
    case 'token.regenerated':
      return { kind: 'credential.regenerated', detail: { credential: 'token', name: event.name } };
    case 'token.recreated':
      return { kind: 'credential.recreated', detail: { credential: 'token', name: event.name } };
    default:
      return null;
  }
}

let sequence = 0;

/**
 * A new entry id: the time (12 hex), this instance's running count (8 hex) and 12 random hex. Ids of one instance
 * grow with every entry, so entries written in the same millisecond (a failed sign-in and the lock it caused) still
 * list newest first; the random part keeps instances apart.
 */
export function historyId(at: number): string {
  sequence = (sequence + 1) % 0x1_0000_0000;
  return (
    Math.max(0, at).toString(16).padStart(12, '0').slice(-12) +
    sequence.toString(16).padStart(8, '0') +
    crypto.randomBytes(6).toString('hex')
  );
}

/** The browser an origin's User-Agent names (server/auth/user-agent.ts), null when it sent none. */
function browserOf(origin: EventOrigin | null): Browser | null {
  return origin?.userAgent ? describeBrowser(origin.userAgent).info : null;
}

/**
 * The history's event receiver: an event addressed to one account, of a kind the history keeps, becomes one entry
 * with the address and browser of the request it happened in (the event's own where it names them: a new device).
 * Events to an organisation are nobody's own history. Answers false: the history is not news for the inbox's bell.
 */
export async function recordEvent(deps: EventDeps, event: AccountEvent, origin: EventOrigin | null): Promise<boolean> {
  if (!('userId' in event.to)) return false;
  const entry = historyEntryOf(event);
  if (!entry) return false;
  const at = deps.clock.now().getTime();
  const address = 'address' in event ? event.address : (origin?.address ?? null);
  const browser = event.type === 'sign-in.new-device' ? event.browser : browserOf(origin);
  await deps.db
    .insertInto('account_history')
    .values({
      id: historyId(at),
      user_id: event.to.userId,
      at,
      kind: entry.kind,
      kind_group: HISTORY_GROUP_OF[entry.kind],
      detail: JSON.stringify(entry.detail),
      address: address ? address.slice(0, 64) : null,
      browser: browser ? JSON.stringify(browser) : null,
    })
    .execute();
  return false;
}

/** A stored entry as the page (and the export) reads it. */
export function toEntry(row: AccountHistoryTable): HistoryEntry {
  return {
    id: row.id,
    at: new Date(Number(row.at)).toISOString(),
    kind: row.kind as HistoryKind,
    detail: JSON.parse(row.detail) as HistoryDetail,
    address: row.address,
    browser: row.browser ? (JSON.parse(row.browser) as Browser) : null,
  };
}

/** The key name of the cursors' HMAC in `service_secrets`. */
const CURSOR_KEY = 'history-cursor';

/** Where a page ends, in an account's history. */
interface Position {
  at: number;
  id: string;
}

/**
 * The cursor of the page after `last`: the position in base64url and its HMAC over the account's id too, so a
 * cursor is opaque, cannot be edited, and is worth nothing in another account's history.
 */
async function encodeCursor(deps: HistoryDeps, userId: string, last: Position): Promise<string> {
  const key = await serviceSecret(deps.db, deps.clock, CURSOR_KEY);
  const position = `${Number(last.at)}.${last.id}`;
  return `${Buffer.from(position).toString('base64url')}.${hmac(key, `${userId}.${position}`)}`;
}

const POSITION_RE = /^(\d{1,16})\.([0-9a-f]{32})$/;

/** The position a cursor names; 400 HistoryCursorInvalid when this service did not write it for this account. */
async function decodeCursor(deps: HistoryDeps, userId: string, cursor: string): Promise<Position> {
  const [encoded, signature, extra] = cursor.split('.');
  const position = encoded ? Buffer.from(encoded, 'base64url').toString('utf8') : '';
  const m = POSITION_RE.exec(position);
  const key = await serviceSecret(deps.db, deps.clock, CURSOR_KEY);
  if (extra !== undefined || !signature || !m || !verifyHmac(key, `${userId}.${position}`, signature)) {
    throw new AppError(400, 'HistoryCursorInvalid');
  }
  return { at: Number(m[1]), id: m[2] };
}

/** The filter of a history read: the account, an optional group, and where the previous page ended. */
interface HistoryScope {
  userId: string;
  group?: HistoryGroup;
  after?: Position;
  /** The oldest instant shown. */
  since: number;
}

/** The account's entries newest first from `scope`, at most `limit` (one indexed range, no OFFSET). */
function readEntries(deps: HistoryDeps, scope: HistoryScope, limit: number): Promise<AccountHistoryTable[]> {
  let q = deps.db.selectFrom('account_history').selectAll().where('user_id', '=', scope.userId);
  if (scope.group) q = q.where('kind_group', '=', scope.group);
  q = q.where('at', '>=', scope.since);
  if (scope.after) q = q.where(sql<boolean>`(at, id) < (${scope.after.at}, ${scope.after.id})`);
  return q.orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/** One page of the caller's own history of the last `HISTORY_DAYS` days, newest first, after `cursor`. */
export async function historyPage(
  deps: HistoryDeps,
  userId: string,
  input: { group?: HistoryGroup; cursor?: string; limit?: number },
): Promise<HistoryPage> {
  const limit = input.limit ?? HISTORY_PAGE_DEFAULT;
  const after = input.cursor === undefined ? undefined : await decodeCursor(deps, userId, input.cursor);
  const since = historySince(deps.clock.now().getTime());
  const rows = await readEntries(deps, { userId, group: input.group, after, since }, limit + 1);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    entries: page.map(toEntry),
    next: rows.length > limit ? await encodeCursor(deps, userId, last) : null,
  };
}

/** Rows per read while the whole history is walked (the export): bounded memory whatever its length. */
export const HISTORY_BATCH = 500;

/**
 * Every entry of the account's history since `since` (default: the last `HISTORY_DAYS` days) of one group or all,
 * newest first, read in keyset batches: the export streams them without holding the history in memory.
 */
export async function* allEntries(
  deps: HistoryDeps,
  userId: string,
  group?: HistoryGroup,
  since = historySince(deps.clock.now().getTime()),
): AsyncGenerator<AccountHistoryTable> {
  let after: Position | undefined;
  for (;;) {
    const rows = await readEntries(deps, { userId, group, after, since }, HISTORY_BATCH);
    yield* rows;
    if (rows.length < HISTORY_BATCH) return;
    const last = rows[rows.length - 1];
    after = { at: Number(last.at), id: last.id };
  }
}

/** Housekeeping: deletes the entries older than `HISTORY_DAYS` days (the page no longer shows them). */
export async function purgeHistory(ctx: Pick<AppContext, 'db' | 'clock'>): Promise<void> {
  await ctx.db.deleteFrom('account_history').where('at', '<', historySince(ctx.clock.now().getTime())).execute();
}
