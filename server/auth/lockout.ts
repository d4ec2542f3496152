import { sql, type Kysely } from 'kysely';
import type { Clock } from '../clock';
import type { DB } from '../db/schema';

/** The failure that locks: the 5th consecutive failure answers 'locked'. */
export const LOCK_AT_FAILURES = 5;
/** How long a lock lasts. */
export const LOCK_DURATION_MS = 60 * 60 * 1000;

/** The counter key of a username: the lower-cased string, whether or not an account exists. */
export function lockoutKey(username: string): string {
  return username.toLowerCase();
}

/** Per-username failure counting in the database, atomic so parallel attempts count exactly. */
export class LoginLockout {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
  ) {}

  /** True while the username is locked. */
  async isLocked(username: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('login_failures')
      .select('locked_until')
      .where('username', '=', lockoutKey(username))
      .executeTakeFirst();
    return row?.locked_until != null && row.locked_until > this.clock.now().getTime();
  }

  /** Counts one failure in a single atomic upsert; returns whether this failure (or an earlier one) locked the name. */
  async recordFailure(username: string): Promise<{ count: number; locked: boolean }> {
    const now = this.clock.now().getTime();
    const lockUntil = now + LOCK_DURATION_MS;
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
        oc.column('username').doUpdateSet({
          count: sql<number>`case when ${expired} then 1 else login_failures.count + 1 end`,
          locked_until: sql<number | null>`case
            when ${expired} then null
            when login_failures.locked_until is not null then login_failures.locked_until
            when login_failures.count + 1 >= ${LOCK_AT_FAILURES} then ${lockUntil}
            else null end`,
          updated_at: now,
        }),
      )
      .returning(['count', 'locked_until'])
      .executeTakeFirstOrThrow();
    return { count: Number(row.count), locked: row.locked_until != null && Number(row.locked_until) > now };
  }

  /** Resets the counter after a correct password; false when the name is locked (the sign-in must then fail). */
  async clearOnSuccess(username: string): Promise<boolean> {
    const key = lockoutKey(username);
    const now = this.clock.now().getTime();
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('login_failures')
        .select('locked_until')
        .where('username', '=', key)
        .executeTakeFirst();
      if (row?.locked_until != null && row.locked_until > now) return false;
      if (row) await trx.deleteFrom('login_failures').where('username', '=', key).execute();
      return true;
    });
  }

  /** Admin unlock: forgets the counter of a username. */
  async unlock(username: string): Promise<boolean> {
    const r = await this.db
      .deleteFrom('login_failures')
      .where('username', '=', lockoutKey(username))
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }
}
