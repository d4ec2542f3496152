import type { Kysely } from 'kysely';

/**
 * The artifact-repository credential of each user. Databases created before the slices split got this
 * table from `030-credentials`; hence `IF NOT EXISTS` (on them this migration records itself and does nothing).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('packages_credentials')
    .ifNotExists()
    .addColumn('user_id', 'varchar(32)', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('username', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text')
    .addColumn('previous_password_hash', 'text')
    .addColumn('effective_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

/** Drops the credential table. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('packages_credentials').ifExists().execute();
}
