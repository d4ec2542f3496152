import type { Kysely } from 'kysely';

/**
 * Third-party and identity-provider bindings (a core table: the third-party and identity-provider pages
 * and the admin CLI share it). Databases created before the slices split got it from `030-credentials`;
 * hence `IF NOT EXISTS`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('identities')
    .ifNotExists()
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

/** Drops the bindings table. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('identities').ifExists().execute();
}
