import type { Kysely } from 'kysely';

/**
 * E-mail change codes: an account without a password proves an e-mail change with a code mailed to its current
 * address; one code per user (a new one replaces it), stored as its SHA-256, bound to the address it went to.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('email_change_codes')
    .addColumn('user_id', 'varchar(32)', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('email', 'varchar(320)', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
}

/** Drops the codes. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('email_change_codes').ifExists().execute();
}
