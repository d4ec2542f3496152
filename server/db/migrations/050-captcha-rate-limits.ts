import type { Kysely } from 'kysely';

/**
 * The slider captcha (puzzles and the passes solved ones earn) and the counters of per-address and per-account
 * limits. Both live in the database so several service instances share them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('captcha_puzzles')
    .addColumn('id_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('username', 'varchar(256)', (c) => c.notNull())
    .addColumn('x', 'integer', (c) => c.notNull())
    .addColumn('y', 'integer', (c) => c.notNull())
    .addColumn('tries', 'integer', (c) => c.notNull())
    .addColumn('solved', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('captcha_puzzles_expires').on('captcha_puzzles').column('expires_at').execute();

  await db.schema
    .createTable('captcha_passes')
    .addColumn('pass_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('username', 'varchar(256)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('captcha_passes_expires').on('captcha_passes').column('expires_at').execute();

  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'varchar(320)', (c) => c.primaryKey())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('window_ms', 'bigint', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rate_limits_window').on('rate_limits').column('window_start').execute();
}

/** Drops the captcha and limit tables. */
export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['rate_limits', 'captcha_passes', 'captcha_puzzles'])
    await db.schema.dropTable(t).ifExists().execute();
}
