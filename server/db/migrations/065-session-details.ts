import crypto from 'node:crypto';
import { sql, type Kysely } from 'kysely';

/**
 * What the account's security page shows of a session (issue 40, devices and sessions):
 * - `handle`: the session's public name for the list and the end call, random and unrelated to the cookie and its
 *   digest (a handle shown to the page gives nothing to sign in with); unique;
 * - `user_agent`: the browser's User-Agent at sign-in, cut to 512 characters;
 * - `address`: the client address the session was last active from (written with `last_seen_at`);
 * - `method`: how it was signed in (`password`, `ldap`, `ad`, a provider id); `unknown` for sessions from before.
 * Live sessions get a handle here (128 random bits in hex, as SessionStore makes them), one by one: they are few (none outlives 12 hours). Portable types only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('sessions')
    .addColumn('handle', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.alterTable('sessions').addColumn('user_agent', 'varchar(512)').execute();
  await db.schema.alterTable('sessions').addColumn('address', 'varchar(64)').execute();
  await db.schema
    .alterTable('sessions')
    .addColumn('method', 'varchar(32)', (c) => c.notNull().defaultTo('unknown'))
    .execute();
  const live = await sql<{ id_hash: string }>`select id_hash from sessions`.execute(db);
  for (const { id_hash } of live.rows) {
    await sql`update sessions set handle = ${crypto.randomBytes(16).toString('hex')} where id_hash = ${id_hash}`.execute(
      db,
    );
  }
  await db.schema.createIndex('sessions_handle_idx').on('sessions').column('handle').unique().execute();
}

/** Drops the columns. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('sessions_handle_idx').ifExists().execute();
  for (const c of ['method', 'address', 'user_agent', 'handle'])
    await db.schema.alterTable('sessions').dropColumn(c).execute();
}
