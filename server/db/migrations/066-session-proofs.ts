import { sql, type Kysely } from 'kysely';

/**
 * When a session last proved it is its owner's (issue 40, re-authentication): `proved_at`, epoch ms. A sign-in is a
 * proof, so a live session's is its `created_at`; a password (or directory password, or provider round trip) given
 * again sets it to that moment. Sensitive routes (`config.reauth`) need it within `REAUTH_WINDOW_MINUTES`.
 * Portable: the same statements run on SQLite and PostgreSQL.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('sessions')
    .addColumn('proved_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update sessions set proved_at = created_at`.execute(db);
}

/** Drops the column. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('proved_at').execute();
}
