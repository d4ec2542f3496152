import type { Kysely } from 'kysely';
import type { Clock } from '../clock';
import type { DB } from '../db/schema';
import { newId } from '../auth/random';
import { scrubLogValue } from '../../schemas/secret-redaction';

/** Largest stored entry, in characters of JSON; longer ones are cut (the body limit keeps them smaller anyway). */
export const MAX_LOG_ENTRY_CHARS = 120_000;

/** How long usage logs are kept; the service's housekeeping deletes older ones. */
export const USAGE_LOG_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * An entry as stored: every string (at any depth) with the secrets of the URLs in it dropped, and the value of
 * any field named like a secret replaced (the rule in schemas/secret-redaction.ts, which the web applies too).
 */
export function sanitizeLogValue(value: unknown): unknown {
  return scrubLogValue(value);
}

/**
 * Stores a batch of usage or performance entries, cleaned of secrets (`sanitizeLogValue`), stamped with the
 * receiving time and the poster.
 */
export async function storeUsageLogs(
  deps: { db: Kysely<DB>; clock: Clock },
  userId: string | null,
  entries: readonly Record<string, unknown>[],
): Promise<void> {
  const now = deps.clock.now().getTime();
  await deps.db
    .insertInto('usage_logs')
    .values(
      entries.map((entry) => ({
        id: newId(),
        user_id: userId,
        received_at: now,
        entry: JSON.stringify(sanitizeLogValue(entry)).slice(0, MAX_LOG_ENTRY_CHARS),
      })),
    )
    .execute();
}

/** Deletes usage logs received more than `USAGE_LOG_RETENTION_MS` ago; run by the service's housekeeping. */
export async function purgeUsageLogs(deps: { db: Kysely<DB>; clock: Clock }): Promise<void> {
  const cutoff = deps.clock.now().getTime() - USAGE_LOG_RETENTION_MS;
  await deps.db.deleteFrom('usage_logs').where('received_at', '<', cutoff).execute();
}
