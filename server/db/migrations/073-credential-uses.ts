import { sql, type Kysely } from 'kysely';

/**
 * Credentials in use (issue 42): one row per credential, client address, outcome and minute (the unique key makes
 * the throttle exact across instances), kept 90 days. `credential_id` is a token's or SSH key's id, or the account's
 * id for the artifact password.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('credential_uses')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('credential_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(32)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('minute', 'bigint', (c) => c.notNull())
    .addColumn('address', 'varchar(64)', (c) => c.notNull())
    .addColumn('client', 'varchar(200)')
    .addColumn('action', 'varchar(300)', (c) => c.notNull())
    .addColumn('outcome', 'varchar(16)', (c) => c.notNull().check(sql`outcome in ('ok', 'refused')`))
    .addColumn('reason', 'varchar(32)')
    .addUniqueConstraint('credential_uses_minute', ['kind', 'credential_id', 'address', 'outcome', 'minute'])
    .execute();
  await db.schema
    .createIndex('credential_uses_by_credential')
    .on('credential_uses')
    .columns(['kind', 'credential_id', 'outcome', 'at'])
    .execute();
  await db.schema.createIndex('credential_uses_by_user').on('credential_uses').columns(['user_id', 'at']).execute();
  await db.schema.createIndex('credential_uses_at').on('credential_uses').column('at').execute();
}

/** Drops the table. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('credential_uses').execute();
}
