import type { Kysely } from 'kysely';

/**
 * `sign_in_steps` (issue 41): a sign-in whose first step passed (password, directory password, third-party sign-in)
 * for an account with a second factor, waiting for that factor before any session exists. The browser holds the
 * ticket (an httpOnly cookie); only its digest is kept. Single use, `SECOND_FACTOR_STEP_MINUTES`; the row carries what
 * the session and the history need afterwards (method, address, browser, the lockout slot's name and lock) and a
 * third-party account to bind when the first step asked to. Goes with its account. Portable types only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sign_in_steps')
    .addColumn('ticket_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(32)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('method', 'varchar(32)', (c) => c.notNull())
    .addColumn('lock_key', 'varchar(256)', (c) => c.notNull())
    .addColumn('lock', 'varchar(16)', (c) => c.notNull())
    .addColumn('address', 'varchar(64)')
    .addColumn('user_agent', 'varchar(512)')
    .addColumn('next_url', 'varchar(2048)')
    .addColumn('bind_provider', 'varchar(16)')
    .addColumn('bind_open_id', 'varchar(200)')
    .addColumn('bind_name', 'varchar(200)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sign_in_steps_expires').on('sign_in_steps').column('expires_at').execute();
  await db.schema.createIndex('sign_in_steps_user').on('sign_in_steps').column('user_id').execute();
}

/** Drops the table. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sign_in_steps').execute();
}
