import { sql, type Kysely } from 'kysely';
import type { Clock } from '../clock';
import type { DB } from '../db/schema';

/** The attempt that locks: the 5th consecutive failure answers 'locked'. */
export const LOCK_AT_FAILURES = 5;
/** How long a lock lasts. */
export const LOCK_DURATION_MS = 60 * 60 * 1000;
/** Failures of a name after which each further attempt needs a slider pass. */
export const CAPTCHA_AFTER_FAILURES = 2;

/** The counter key of a username: the lower-cased string, whether or not an account exists. */
export function lockoutKey(username: string): string {
  return username.toLowerCase();
}

/**
 * The two locks of a name (smart lockout): `unmarked` counts attempts from browsers without the account's device
 * mark (strangers, and the owner on a browser never used before), `marked` those from browsers the account has
 * signed in with. Each has its own count, slider threshold and lock, so a stranger's failures never lock the
 * owner's own browsers.
 */
export type Lock = 'unmarked' | 'marked';

/** Both locks, in the order reports list them. */
export const LOCKS: readonly Lock[] = ['unmarked', 'marked'];

/** The table each lock counts in (same columns). */
const TABLES = { unmarked: 'login_failures', marked: 'login_failures_marked' } as const;

/** A lock's table, typed as `login_failures` (both have its shape) so one query serves both. */
const tableOf = (lock: Lock) => TABLES[lock] as 'login_failures';

/** Where a name stands: locked, how many attempts count against it, and whether the next one needs the slider. */
export interface LockoutState {
  locked: boolean;
  failures: number;
  needCaptcha: boolean;
}

/** The answer to asking for an attempt: go on (holding slot `slot`), locked, or a slider pass is needed first. */
export type Reservation = { kind: 'granted'; slot: number } | { kind: 'locked' } | { kind: 'captcha' };

/**
 * Per-username failure counting in the database, in two locks (`Lock`). An attempt takes its slot with one
 * conditional upsert *before* the password is checked, so N parallel attempts evaluate at most 5 passwords (at
 * most 2 without slider passes) per lock on one database, however many service instances share it. A granted
 * attempt that fails keeps its slot (it is the failure); one that succeeds clears the name in its lock.
 */
export class LoginLockout {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
  ) {}

  /** Where a name stands now in `lock` (an expired lock counts as nothing). */
  async state(username: string, lock: Lock = 'unmarked'): Promise<LockoutState> {
    const row = await this.db
      .selectFrom(tableOf(lock))
      .select(['count', 'locked_until'])
      .where('username', '=', lockoutKey(username))
      .executeTakeFirst();
    const now = this.clock.now().getTime();
    if (!row) return { locked: false, failures: 0, needCaptcha: false };
    const lockedUntil = row.locked_until == null ? null : Number(row.locked_until);
    if (lockedUntil != null && lockedUntil <= now) return { locked: false, failures: 0, needCaptcha: false };
    const failures = Number(row.count);
    return { locked: lockedUntil != null, failures, needCaptcha: failures >= CAPTCHA_AFTER_FAILURES };
  }

  /** True while the username is locked in `lock`. */
  async isLocked(username: string, lock: Lock = 'unmarked'): Promise<boolean> {
    return (await this.state(username, lock)).locked;
  }

  /** Where a name stands in both locks, with the end of each lock (for the admin CLI). */
  async report(username: string): Promise<Record<Lock, LockoutState & { lockedUntil: number | null }>> {
    const out = {} as Record<Lock, LockoutState & { lockedUntil: number | null }>;
    for (const lock of LOCKS) {
      const st = await this.state(username, lock);
      let lockedUntil: number | null = null;
      if (st.locked) {
        const row = await this.db
          .selectFrom(tableOf(lock))
          .select('locked_until')
          .where('username', '=', lockoutKey(username))
          .executeTakeFirst();
        lockedUntil = row?.locked_until == null ? null : Number(row.locked_until);
      }
      out[lock] = { ...st, lockedUntil };
    }
    return out;
  }

  /** The names with failures counted or a lock in force, in either lock (for the admin CLI's list). */
  async counted(): Promise<string[]> {
    const now = this.clock.now().getTime();
    const names = new Set<string>();
    for (const lock of LOCKS) {
      const rows = await this.db
        .selectFrom(tableOf(lock))
        .select('username')
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '>', now)]))
        .where('count', '>', 0)
        .execute();
      for (const r of rows) names.add(r.username);
    }
    return [...names].sort();
  }

  /**
   * Takes the next attempt slot of a name when it is not locked and fewer than `withPass ? 5 : 2` attempts count
   * against it; the 5th slot sets the lock at once, so no attempt after it is evaluated. One statement: the
   * row's conflict update only happens when its condition holds, and then returns the new count.
   */
  async reserve(username: string, withPass: boolean, lock: Lock = 'unmarked'): Promise<Reservation> {
    const now = this.clock.now().getTime();
    const lockUntil = now + LOCK_DURATION_MS;
    const cap = withPass ? LOCK_AT_FAILURES : CAPTCHA_AFTER_FAILURES;
    const t = tableOf(lock);
    const col = (c: 'count' | 'locked_until') => sql.ref(`${t}.${c}`);
    const expired = sql<boolean>`${col('locked_until')} is not null and ${col('locked_until')} <= ${now}`;
    const row = await this.db
      .insertInto(t)
      .values({
        username: lockoutKey(username),
        count: 1,
        locked_until: LOCK_AT_FAILURES <= 1 ? lockUntil : null,
        updated_at: now,
      })
      .onConflict((oc) =>
        oc
          .column('username')
          .doUpdateSet({
            count: sql<number>`case when ${expired} then 1 else ${col('count')} + 1 end`,
            locked_until: sql<number | null>`case
              when ${expired} then null
              when ${col('count')} + 1 >= ${LOCK_AT_FAILURES} then cast(${lockUntil} as bigint)
              else null end`,
            updated_at: now,
          })
          .where(sql<boolean>`(${expired}) or (${col('locked_until')} is null and ${col('count')} < ${cap})`),
      )
      .returning(['count'])
      .executeTakeFirst();
    if (row) return { kind: 'granted', slot: Number(row.count) };
    return (await this.isLocked(username, lock)) ? { kind: 'locked' } : { kind: 'captcha' };
  }

  /**
   * A granted attempt succeeded: the name starts afresh in that attempt's lock (its lock, if the 5th slot set one,
   * goes too). The other lock keeps its count: the owner signing in says nothing about a stranger's guesses.
   */
  async succeeded(username: string, lock: Lock = 'unmarked'): Promise<void> {
    await this.db.deleteFrom(tableOf(lock)).where('username', '=', lockoutKey(username)).execute();
  }

  /**
   * A granted attempt could not be judged (the directory went away between its search and the password check):
   * its slot is given back, and a lock that only this slot set is lifted. Nothing was evaluated, so nothing counts.
   */
  async release(username: string, slot: number, lock: Lock = 'unmarked'): Promise<void> {
    const t = tableOf(lock);
    await this.db
      .updateTable(t)
      .set({
        count: sql<number>`${sql.ref(`${t}.count`)} - 1`,
        locked_until: sql<
          number | null
        >`case when ${slot} >= ${LOCK_AT_FAILURES} then null else ${sql.ref(`${t}.locked_until`)} end`,
      })
      .where('username', '=', lockoutKey(username))
      .where('count', '>', 0)
      .execute();
  }

  /** Admin unlock and password reset: forgets the counters of a username, in both locks unless one is named. */
  async unlock(username: string, only?: Lock): Promise<boolean> {
    let had = false;
    for (const lock of only ? [only] : LOCKS) {
      const r = await this.db.deleteFrom(tableOf(lock)).where('username', '=', lockoutKey(username)).executeTakeFirst();
      had = Number(r.numDeletedRows) > 0 || had;
    }
    return had;
  }
}
