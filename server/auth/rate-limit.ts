import { sql, type Kysely } from 'kysely';
import type { Clock } from '../clock';
import type { DB } from '../db/schema';

/** The outcome of counting one request against a limit. */
export interface RateLimitHit {
  /** Within the limit: go on. */
  allowed: boolean;
  /** This request's number in the current window (1 = first). */
  count: number;
  /** Epoch ms when the window ends and the count starts afresh (what `Retry-After` tells). */
  resetAt: number;
}

/**
 * Fixed-window counters in the database, so every instance on one database counts the same requests:
 * each hit is one atomic upsert, so N parallel requests get the numbers 1…N and exactly `limit` pass.
 */
export class RateLimiter {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
  ) {}

  /**
   * Counts one request under `key` (or `n` units at once: rows, kilobytes); allowed while the window's count is
   * at most `limit`. Units refused are counted too, so a client over the limit stays over until the window ends.
   */
  async hit(key: string, limit: number, windowMs: number, n = 1): Promise<RateLimitHit> {
    const now = this.clock.now().getTime();
    const units = Math.max(0, Math.floor(n));
    const over = sql<boolean>`rate_limits.window_start + rate_limits.window_ms <= ${now}`;
    const row = await this.db
      .insertInto('rate_limits')
      .values({ key, window_start: now, window_ms: windowMs, count: units })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          count: sql<number>`case when ${over} then cast(${units} as integer) else rate_limits.count + cast(${units} as integer) end`,
          window_start: sql<number>`case when ${over} then ${now} else rate_limits.window_start end`,
          window_ms: windowMs,
        }),
      )
      .returning(['count', 'window_start'])
      .executeTakeFirstOrThrow();
    const count = Number(row.count);
    return { allowed: count <= limit, count, resetAt: Number(row.window_start) + windowMs };
  }

  /** The count of the current window under `key` (0 when none or the window is over), without counting. */
  async peek(key: string): Promise<number> {
    const now = this.clock.now().getTime();
    const row = await this.db
      .selectFrom('rate_limits')
      .select(['count', 'window_start', 'window_ms'])
      .where('key', '=', key)
      .executeTakeFirst();
    return row && Number(row.window_start) + Number(row.window_ms) > now ? Number(row.count) : 0;
  }

  /** Forgets a counter (e.g. an account's after its password was reset). */
  async reset(key: string): Promise<void> {
    await this.db.deleteFrom('rate_limits').where('key', '=', key).execute();
  }

  /** Removes counters whose window is over; housekeeping. */
  async purgeExpired(): Promise<void> {
    const now = this.clock.now().getTime();
    await this.db
      .deleteFrom('rate_limits')
      .where(sql<boolean>`window_start + window_ms <= ${now}`)
      .execute();
  }
}
