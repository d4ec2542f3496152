import type { Kysely } from 'kysely';

/**
 * An account its owner locked with "this wasn't me" (issue 40): no sign-in and no password recovery until an
 * administrator lifts it (`unlock-user`), whatever the sign-in locks say. Null for every existing account.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('held_at', 'bigint').execute();
}

/** Drops the column. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('held_at').execute();
}
