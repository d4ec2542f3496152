import type { Kysely } from 'kysely';

/** SSH public keys, artifact-repository credentials and third-party / identity-provider bindings (issue 6). */
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

  await db.schema
    .createTable('packages_credentials')
    .addColumn('user_id', 'varchar(32)', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('username', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text')
    .addColumn('previous_password_hash', 'text')
    .addColumn('effective_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('identities')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(32)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('provider', 'varchar(16)', (c) => c.notNull())
    .addColumn('credential', 'varchar(200)', (c) => c.notNull())
    .addColumn('open_id', 'varchar(200)', (c) => c.notNull())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    // One account per credential (DingTalk app, Feishu app, identity source…) per user,
    // and one user per external account of a credential.
    .addUniqueConstraint('identities_user_credential_uq', ['user_id', 'credential'])
    .addUniqueConstraint('identities_credential_open_id_uq', ['credential', 'open_id'])
    .execute();
}

/** Drops the credential tables. */
export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['identities', 'packages_credentials', 'ssh_keys']) await db.schema.dropTable(t).ifExists().execute();
}
