import type { Kysely } from 'kysely';

/**
 * The account's history (portable types only): one row per account event worth keeping, 90 days. The page reads
 * one user's rows newest first by keyset (at, id), all of them or one group of kinds, so both reads have an index
 * that starts with the user and ends with (at desc, id desc); the purge deletes by time alone.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('account_history')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(32)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('kind_group', 'varchar(16)', (c) => c.notNull())
    .addColumn('detail', 'text', (c) => c.notNull())
    .addColumn('address', 'varchar(64)')
    .addColumn('browser', 'text')
    .execute();
  const idx = (name: string) => db.schema.createIndex(name).on('account_history');
  await idx('account_history_user_time').columns(['user_id', 'at desc', 'id desc']).execute();
  await idx('account_history_user_group_time').columns(['user_id', 'kind_group', 'at desc', 'id desc']).execute();
  await idx('account_history_at').column('at').execute();
}

/** Drops the history. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('account_history').ifExists().execute();
}
