import type { Kysely } from 'kysely';

/**
 * Organisation policies the service enforces on every request made in an organisation's context: the IP
 * whitelist (a JSON array of CIDRs, null = no restriction), the licence expiry and the standard-edition order
 * expiry (epoch ms, null = none). Portable: plain nullable columns added one by one (SQLite adds one per ALTER).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('organizations').addColumn('ip_whitelist', 'text').execute();
  await db.schema.alterTable('organizations').addColumn('licence_expires_at', 'bigint').execute();
  await db.schema.alterTable('organizations').addColumn('order_expires_at', 'bigint').execute();
}

/** Drops the policy columns (SQLite 3.35+ and PostgreSQL both support DROP COLUMN). */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('organizations').dropColumn('order_expires_at').execute();
  await db.schema.alterTable('organizations').dropColumn('licence_expires_at').execute();
  await db.schema.alterTable('organizations').dropColumn('ip_whitelist').execute();
}
