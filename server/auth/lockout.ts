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

/** Where a name stands: locked, how many attempts count against it, and whether the next one needs the slider. */
export interface LockoutState {
  locked: boolean;
  failures: number;
  needCaptcha: boolean;
}

/** The answer to asking for an attempt: go on (holding slot `slot`), locked, or a slider pass is needed first. */
export type Reservation = { kind: 'granted'; slot: number } | { kind: 'locked' } | { kind: 'captcha' };

/**
 * Per-username failure counting in the database. An attempt takes its slot with one conditional upsert
 * *before* the password is checked, so N parallel attempts evaluate at most 5 passwords (at most 2 without
 * slider passes) on one database, however many service instances share it. A granted attempt that fails
 * keeps its slot (it is the failure); one that succeeds clears the name.
 */
export class LoginLockout {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
  ) {}

  /** Where a name stands now (an expired lock counts as nothing). */
  async state(username: string): Promise<LockoutState> {
    const row = await this.db
      .selectFrom('login_failures')
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

  /** True while the username is locked. */
  async isLocked(username: string): Promise<boolean> {
    return (await this.state(username)).locked;
  }

  /**
   * Takes the next attempt slot of a name when it is not locked and fewer than `withPass ? 5 : 2` attempts count
   * against it; the 5th slot sets the lock at once, so no attempt after it is evaluated. One statement: the
   * row's conflict update only happens when its condition holds, and then returns the new count.
   */
  async reserve(username: string, withPass: boolean): Promise<Reservation> {
    const now = this.clock.now().getTime();
    const lockUntil = now + LOCK_DURATION_MS;
    const cap = withPass ? LOCK_AT_FAILURES : CAPTCHA_AFTER_FAILURES;
    const expired = sql<boolean>`login_failures.locked_until is not null and login_failures.locked_until <= ${now}`;
    const row = await this.db
      .insertInto('login_failures')
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
            count: sql<number>`case when ${expired} then 1 else login_failures.count + 1 end`,
            locked_until: sql<number | null>`case
              when ${expired} then null
              when login_failures.count + 1 >= ${LOCK_AT_FAILURES} then cast(${lockUntil} as bigint)
              else null end`,
            updated_at: now,
          })
          .where(sql<boolean>`(${expired}) or (login_failures.locked_until is null and login_failures.count < ${cap})`),
      )
      .returning(['count'])
      .executeTakeFirst();
    if (row) return { kind: 'granted', slot: Number(row.count) };
    return (await this.isLocked(username)) ? { kind: 'locked' } : { kind: 'captcha' };
  }

  /** A granted attempt succeeded: the name starts afresh (its lock, if the 5th slot set one, goes too). */
  async succeeded(username: string): Promise<void> {
    await this.unlock(username);
  }

  /**
   * A granted attempt could not be judged (the directory went away between its search and the password check):
   * its slot is given back, and a lock that only this slot set is lifted. Nothing was evaluated, so nothing counts.
   */
  async release(username: string, slot: number): Promise<void> {
    await this.db
      .updateTable('login_failures')
      .set({
        count: sql<number>`login_failures.count - 1`,
        locked_until: sql<
          number | null
        >`case when ${slot} >= ${LOCK_AT_FAILURES} then null else login_failures.locked_until end`,
      })
      .where('username', '=', lockoutKey(username))
      .where('count', '>', 0)
      .execute();
  }

  /** Admin unlock and password reset: forgets the counter of a username. */
  async unlock(username: string): Promise<boolean> {
    const r = await this.db
      .deleteFrom('login_failures')
      .where('username', '=', lockoutKey(username))
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }
}
