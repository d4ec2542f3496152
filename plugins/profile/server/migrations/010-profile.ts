import type { Kysely } from 'kysely';

/** Profile section: e-mail activation tokens, the per-user mail throttle, and avatar uploads (portable types only). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('email_tokens')
    .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(32)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('email', 'varchar(320)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('email_tokens_user_idx').on('email_tokens').column('user_id').execute();

  await db.schema
    .createTable('email_send_throttle')
    .addColumn('user_id', 'varchar(32)', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('last_sent_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('avatar_uploads')
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(32)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('content_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('avatar_uploads_user_idx').on('avatar_uploads').column('user_id').execute();
}

/** Drops the profile tables. */
export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['avatar_uploads', 'email_send_throttle', 'email_tokens']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
