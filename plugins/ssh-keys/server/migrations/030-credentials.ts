import type { Kysely } from 'kysely';

/**
 * SSH public keys. The name is the one recorded in existing databases, where this migration (issue 6)
 * also created `packages_credentials` and `identities`; those now come from `031-packages-credential`
 * (packages-credential slice) and `032-identities` (core), both `IF NOT EXISTS`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ssh_keys')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(32)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('key_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('public_key', 'text', (c) => c.notNull())
    // The same key may be registered once in the whole service, whoever adds it.
    .addColumn('fingerprint', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('scope', 'varchar(16)', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('last_used_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ssh_keys_user_idx').on('ssh_keys').column('user_id').execute();
}

/** Drops the SSH key table. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('ssh_keys').ifExists().execute();
}
