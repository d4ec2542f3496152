import type { Kysely } from 'kysely';

/**
 * Addresses and browsers each account has signed in from (as digests), so a sign-in from one not seen before
 * can be told to the account's owner (portable types only).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sign_in_devices')
    .addColumn('user_id', 'varchar(32)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('value_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('first_seen', 'bigint', (c) => c.notNull())
    .addColumn('last_seen', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('sign_in_devices_pk', ['user_id', 'kind', 'value_hash'])
    .execute();
  await db.schema.createIndex('sign_in_devices_last_seen').on('sign_in_devices').column('last_seen').execute();
}

/** Drops the table. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sign_in_devices').ifExists().execute();
}
