import type { Kysely } from 'kysely';

/** Usage and performance logs posted by the web app (`POST /api/logs`). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('usage_logs')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(32)')
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .addColumn('entry', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('usage_logs_received_at').on('usage_logs').column('received_at').execute();
}

/** Drops the usage log table. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('usage_logs').execute();
}
