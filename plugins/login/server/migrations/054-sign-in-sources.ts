import type { Kysely } from 'kysely';

/**
 * Sign-in sources besides passwords (portable types only):
 * - `sign_in_directories`: LDAP / Windows AD directories, one per kind for the instance (`org_key` '') and
 *   optionally one per kind per organisation; the bind password is a reference (`env:NAME` / `file:PATH`), never
 *   the secret itself;
 * - `oauth_providers`: DingTalk, Lark and WeCom clients (the secret likewise a reference);
 * - `oauth_states`: one row per started third-party sign-in (state and PKCE verifier), single use, bound to the
 *   browser that started it by a cookie digest;
 * - `oauth_pending_binds`: a third-party account that signed in unbound, waiting (10 minutes, same browser) for a
 *   password sign-in to bind it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sign_in_directories')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('kind', 'varchar(8)', (c) => c.notNull())
    .addColumn('org_key', 'varchar(32)', (c) => c.notNull())
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('url', 'varchar(500)', (c) => c.notNull())
    .addColumn('start_tls', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ca_file', 'varchar(500)')
    .addColumn('bind_dn', 'varchar(500)', (c) => c.notNull())
    .addColumn('bind_secret_ref', 'varchar(600)', (c) => c.notNull())
    .addColumn('base_dn', 'varchar(500)', (c) => c.notNull())
    .addColumn('user_filter', 'varchar(1000)', (c) => c.notNull())
    .addColumn('attr_login', 'varchar(100)', (c) => c.notNull())
    .addColumn('attr_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('attr_email', 'varchar(100)', (c) => c.notNull())
    .addColumn('timeout_ms', 'integer', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('sign_in_directories_kind_org_uq', ['kind', 'org_key'])
    .execute();
  await db.schema
    .createTable('oauth_providers')
    .addColumn('provider', 'varchar(16)', (c) => c.primaryKey())
    .addColumn('client_id', 'varchar(200)', (c) => c.notNull())
    .addColumn('secret_ref', 'varchar(600)', (c) => c.notNull())
    .addColumn('authorize_url', 'varchar(1000)', (c) => c.notNull())
    .addColumn('token_url', 'varchar(1000)', (c) => c.notNull())
    .addColumn('userinfo_url', 'varchar(1000)', (c) => c.notNull())
    .addColumn('scope', 'varchar(200)', (c) => c.notNull())
    .addColumn('id_field', 'varchar(100)', (c) => c.notNull())
    .addColumn('name_field', 'varchar(100)', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('oauth_states')
    .addColumn('state_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('browser_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('provider', 'varchar(16)', (c) => c.notNull())
    .addColumn('code_verifier', 'varchar(128)', (c) => c.notNull())
    .addColumn('next_url', 'varchar(2048)')
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('oauth_states_expires').on('oauth_states').column('expires_at').execute();
  await db.schema
    .createTable('oauth_pending_binds')
    .addColumn('ticket_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('provider', 'varchar(16)', (c) => c.notNull())
    .addColumn('open_id', 'varchar(200)', (c) => c.notNull())
    .addColumn('display_name', 'varchar(200)', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('oauth_pending_binds_expires').on('oauth_pending_binds').column('expires_at').execute();
}

/** Drops the tables. */
export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['oauth_pending_binds', 'oauth_states', 'oauth_providers', 'sign_in_directories'])
    await db.schema.dropTable(t).ifExists().execute();
}
