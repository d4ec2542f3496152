import type { AppContext } from '../../../server/context';
import type { CredentialHealthEntry, CredentialHealthSource } from '../../../server/plugin';
import { describeBrowser } from '../../../server/auth/user-agent';
import { sessionExpiry, sessionRows, type SessionRow } from './sessions-service';
import {
  EXPIRING_WITHIN_DAYS,
  STALE_AFTER_DAYS,
  type CredentialHealth,
  type CredentialHealthItem,
  type CredentialRef,
  type HealthMark,
  type RevokeStaleResult,
} from '../contract';

// Credential health (issue 42): every token, SSH key, the artifact password (the slices' `credentialHealth` sources)
// and the account's sessions, marked never used, unused for 30 or 90 days, expiring within 7 days, expired; and
// "revoke all stale".

const DAY_MS = 24 * 60 * 60 * 1000;
const [UNUSED_SHORT_DAYS, UNUSED_LONG_DAYS] = STALE_AFTER_DAYS;

/** What the marks are computed from: a credential's creation, expiry and last successful use. */
export interface MarkInput {
  createdAt: number;
  expiresAt: number | null;
  lastUse: { at: number } | null;
}

/**
 * A credential's marks at `now`. Unused counts from the last use, or from the creation when it was never used (a
 * token made yesterday and never used is "never used" but not yet stale). `expiring` is left out where every item
 * of a kind ends within days by design (sessions end after 30 idle minutes or 12 hours).
 */
export function healthMarks(c: MarkInput, now: number, opts: { expiring: boolean } = { expiring: true }): HealthMark[] {
  const marks: HealthMark[] = [];
  if (c.lastUse === null) marks.push('never-used');
  const idle = now - (c.lastUse?.at ?? c.createdAt);
  if (idle >= UNUSED_LONG_DAYS * DAY_MS) marks.push('unused-90');
  else if (idle >= UNUSED_SHORT_DAYS * DAY_MS) marks.push('unused-30');
  if (c.expiresAt !== null && c.expiresAt <= now) marks.push('expired');
  else if (opts.expiring && c.expiresAt !== null && c.expiresAt - now <= EXPIRING_WITHIN_DAYS * DAY_MS)
    marks.push('expiring');
  return marks;
}

/**
 * Whether "revoke all stale" takes it: expired, or unused for 30 days or more (since its creation when never used).
 * Expiring alone is a warning, not staleness; a fresh credential never used is not stale yet.
 */
export function isStale(marks: readonly HealthMark[]): boolean {
  return marks.some((m) => m === 'expired' || m === 'unused-30' || m === 'unused-90');
}

const iso = (ms: number) => new Date(ms).toISOString();

/** An item of the list from a slice's entry. */
function entryItem(e: CredentialHealthEntry, now: number): CredentialHealthItem {
  const marks = healthMarks(e, now);
  return {
    kind: e.kind,
    id: e.id,
    name: e.name,
    createdAt: iso(e.createdAt),
    expiresAt: e.expiresAt === null ? null : iso(e.expiresAt),
    lastUse: e.lastUse && { at: iso(e.lastUse.at), address: e.lastUse.address, client: e.lastUse.client },
    marks,
    stale: isStale(marks),
  };
}

/** A session's name: its browser and system as the User-Agent tells them, in no language ('' when it tells nothing). */
function sessionName(userAgent: string | null): string {
  const b = describeBrowser(userAgent).info;
  const name = [b.name, b.version].filter(Boolean).join(' ');
  return [name, b.os].filter(Boolean).join(' · ');
}

/** An item of the list from a live session; the calling one is never stale. */
function sessionItem(row: SessionRow, now: number, current: boolean): CredentialHealthItem {
  const lastUse = { at: Number(row.last_seen_at), address: row.address ?? '', client: row.user_agent };
  const marks = healthMarks({ createdAt: Number(row.created_at), expiresAt: sessionExpiry(row), lastUse }, now, {
    expiring: false,
  });
  return {
    kind: 'session',
    id: row.handle,
    name: sessionName(row.user_agent),
    browser: describeBrowser(row.user_agent).info,
    createdAt: iso(Number(row.created_at)),
    expiresAt: iso(sessionExpiry(row)),
    lastUse: { ...lastUse, at: iso(lastUse.at) },
    marks,
    stale: !current && isStale(marks),
  };
}

/** One listed credential with the source that revokes it (null: a session, which this slice ends itself). */
interface Listed {
  item: CredentialHealthItem;
  source: CredentialHealthSource | null;
}

const keyOf = (c: CredentialRef) => `${c.kind}\n${c.id}`;

/** Everything the account holds, with what revokes each, as of now. */
async function listAll(
  ctx: AppContext,
  userId: string,
  currentIdHash: string | null,
): Promise<{ listed: Listed[]; current: string | null; now: number }> {
  const now = ctx.clock.now().getTime();
  const [bySource, sessions] = await Promise.all([
    Promise.all(ctx.credentialSources.map(async ({ source }) => ({ source, entries: await source.list(ctx, userId) }))),
    sessionRows(ctx, userId),
  ]);
  const listed: Listed[] = bySource.flatMap(({ source, entries }) =>
    entries.map((e) => ({ item: entryItem(e, now), source })),
  );
  let current: string | null = null;
  for (const row of sessions) {
    const isCurrent = row.id_hash === currentIdHash;
    if (isCurrent) current = row.handle;
    listed.push({ item: sessionItem(row, now, isCurrent), source: null });
  }
  return { listed, current, now };
}

/** The account's credentials and sessions with their marks (`GET credentialHealth`). */
export async function credentialHealth(
  ctx: AppContext,
  userId: string,
  currentIdHash: string | null,
): Promise<CredentialHealth> {
  const { listed, current, now } = await listAll(ctx, userId, currentIdHash);
  return { credentials: listed.map((l) => l.item), current_session: current, checked_at: iso(now) };
}

/**
 * "Revoke all stale": the marks are computed again now, and only what is stale now goes — of `items` when given (what
 * its owner saw and confirmed: one used meanwhile stays, one gone stale meanwhile waits for the next look), else all.
 * Never the calling session. Answers what went (what its source no longer lists afterwards, so a credential deleted
 * by another call meanwhile is not claimed) and how many named ones stayed; the history gets one entry with counts.
 */
export async function revokeStale(
  ctx: AppContext,
  userId: string,
  currentIdHash: string,
  items: readonly CredentialRef[] | undefined,
): Promise<RevokeStaleResult> {
  const { listed, current } = await listAll(ctx, userId, currentIdHash);
  const wanted = items && new Set(items.map(keyOf));
  const targets = listed.filter(
    (l) =>
      l.item.stale && !(l.item.kind === 'session' && l.item.id === current) && (!wanted || wanted.has(keyOf(l.item))),
  );

  const revoked: CredentialHealthItem[] = [];
  const sources = new Map<CredentialHealthSource, Listed[]>();
  const sessionHandles: string[] = [];
  for (const t of targets) {
    if (t.source) sources.set(t.source, [...(sources.get(t.source) ?? []), t]);
    else sessionHandles.push(t.item.id);
  }
  for (const [source, mine] of sources) {
    await source.revoke(
      ctx,
      userId,
      mine.map((t) => t.item.id),
    );
    const left = new Set((await source.list(ctx, userId)).map((e) => keyOf(e)));
    for (const t of mine) if (!left.has(keyOf(t.item))) revoked.push(t.item);
  }
  if (sessionHandles.length) {
    const gone = await ctx.db
      .deleteFrom('sessions')
      .where('user_id', '=', userId)
      .where('handle', 'in', sessionHandles)
      .where('id_hash', '!=', currentIdHash)
      .returning('handle')
      .execute();
    const ended = new Set(gone.map((g) => g.handle));
    revoked.push(...targets.filter((t) => !t.source && ended.has(t.item.id)).map((t) => t.item));
  }

  if (revoked.length) {
    const counts = new Map<CredentialHealthItem['kind'], number>();
    for (const r of revoked) counts.set(r.kind, (counts.get(r.kind) ?? 0) + 1);
    await ctx.events.emit({
      type: 'credentials.stale-revoked',
      counts: [...counts].map(([credential, count]) => ({ credential, count })),
      to: { userId },
    });
  }
  return {
    revoked: revoked.map((r) => ({ kind: r.kind, id: r.id, name: r.name })),
    kept: wanted ? wanted.size - revoked.length : 0,
  };
}
