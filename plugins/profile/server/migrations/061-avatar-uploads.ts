import { sql, type Kysely } from 'kysely';

/**
 * Bounded avatar uploads: each stored file's size (the storage budget sums it) and whether it is some account's
 * avatar (`in_use`); an upload not in use is the user's one pending avatar, replaced by the next upload and removed
 * after an hour. Existing files count as in use when an account shows them, else as pending (so the first
 * housekeeping pass removes the strays); their size is unknown (0) until replaced.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('avatar_uploads')
    .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('avatar_uploads')
    .addColumn('in_use', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update avatar_uploads set in_use = 1 where exists (
    select 1 from users where users.avatar = '/objects/avatars/' || avatar_uploads.name)`.execute(db);
  await db.schema
    .createIndex('avatar_uploads_pending_idx')
    .on('avatar_uploads')
    .columns(['in_use', 'created_at'])
    .execute();
}

/** Drops the two columns and the index. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('avatar_uploads_pending_idx').ifExists().execute();
  await db.schema.alterTable('avatar_uploads').dropColumn('in_use').execute();
  await db.schema.alterTable('avatar_uploads').dropColumn('size').execute();
}
