import type { Kysely } from 'kysely';

/** Password recovery: one row per recovery opened by a solved slider (portable types only). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('recovery_flows')
    .addColumn('id_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(32)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('username', 'varchar(256)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('code_hash', 'varchar(64)')
    .addColumn('code_expires_at', 'bigint')
    .addColumn('code_tries', 'integer', (c) => c.notNull())
    .addColumn('ticket_hash', 'varchar(64)', (c) => c.unique())
    .addColumn('ticket_expires_at', 'bigint')
    .execute();
  await db.schema.createIndex('recovery_flows_user_idx').on('recovery_flows').column('user_id').execute();
  await db.schema.createIndex('recovery_flows_expires_idx').on('recovery_flows').column('expires_at').execute();
}

/** Drops the recovery table. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('recovery_flows').ifExists().execute();
}
