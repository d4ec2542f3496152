import type { Kysely } from 'kysely';
import type { Clock } from '../clock';
import type { DB } from '../db/schema';
import { newId } from '../auth/random';

/** Largest stored entry, in characters of JSON; longer ones are cut (the client caps fields already). */
export const MAX_LOG_ENTRY_CHARS = 120_000;

/** Stores a batch of usage or performance entries as posted, stamped with the receiving time and the poster. */
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
        entry: JSON.stringify(entry).slice(0, MAX_LOG_ENTRY_CHARS),
      })),
    )
    .execute();
}
