import type { Kysely } from 'kysely';

/**
 * Token rotation (issue 42): a regenerated token's old row stays while its grace runs, naming the row that replaced
 * it (`replaced_by`), so the list can say "replaced, stops at …", the expiry notices skip it and the housekeeping
 * removes it once its secret stops. Null for every existing row. Portable: the same statement on SQLite and PostgreSQL.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('personal_access_tokens').addColumn('replaced_by', 'varchar(32)').execute();
}

/** Drops the column. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('personal_access_tokens').dropColumn('replaced_by').execute();
}
