import type { Kysely } from 'kysely';

/**
 * Smart lockout (portable types only):
 * - `login_failures_marked`: the second lock of a name, counting failures from browsers that carry a device mark
 *   of the account (`login_failures` keeps counting the others), so a stranger's failures lock only strangers;
 * - `service_secrets`: keys the service signs with (the device mark's HMAC), made once by whichever instance needs
 *   one first and shared by every instance through the database.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('login_failures_marked')
    .addColumn('username', 'varchar(256)', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('locked_until', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('service_secrets')
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('value', 'varchar(128)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

/** Drops the tables. */
export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['service_secrets', 'login_failures_marked']) await db.schema.dropTable(t).ifExists().execute();
}
