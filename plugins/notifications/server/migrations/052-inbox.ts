import { sql, type Kysely } from 'kysely';

/**
 * The message center (portable types only). Every list is keyset-paged newest first within one user, so each
 * filter the page offers has an index that starts with the user and ends with (created_at, id): all messages,
 * one application, unread (partial), and the counts per application and read state.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('inbox_messages')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(32)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('app', 'varchar(32)', (c) => c.notNull())
    .addColumn('type', 'varchar(64)', (c) => c.notNull())
    .addColumn('params', 'text', (c) => c.notNull())
    .addColumn('sensitive', 'integer', (c) => c.notNull())
    .addColumn('read_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('event_key', 'varchar(200)')
    .execute();
  const idx = (name: string) => db.schema.createIndex(name).on('inbox_messages');
  await idx('inbox_messages_user_time').columns(['user_id', 'created_at', 'id']).execute();
  await idx('inbox_messages_user_app_time').columns(['user_id', 'app', 'created_at', 'id']).execute();
  await idx('inbox_messages_unread_time')
    .columns(['user_id', 'created_at', 'id'])
    .where(sql.ref('read_at'), 'is', null)
    .execute();
  await idx('inbox_messages_unread_app_time')
    .columns(['user_id', 'app', 'created_at', 'id'])
    .where(sql.ref('read_at'), 'is', null)
    .execute();
  await idx('inbox_messages_counts').columns(['user_id', 'app', 'read_at']).execute();
  await idx('inbox_messages_event').unique().columns(['user_id', 'event_key']).execute();
  await idx('inbox_messages_created').column('created_at').execute();
}

/** Drops the message table. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('inbox_messages').ifExists().execute();
}
