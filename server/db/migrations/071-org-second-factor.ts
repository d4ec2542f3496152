import type { Kysely } from 'kysely';

/**
 * An organisation's second-factor policy (issue 41): from `second_factor_required_at` (epoch ms; null = not
 * required) plus `second_factor_grace_days` days, a member without a confirmed authenticator app or a passkey is
 * refused in the organisation's context like an address outside its IP whitelist. Nullable columns added one by one
 * (SQLite adds one per ALTER); every existing organisation requires nothing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('organizations').addColumn('second_factor_required_at', 'bigint').execute();
  await db.schema.alterTable('organizations').addColumn('second_factor_grace_days', 'integer').execute();
}

/** Drops the policy columns. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('organizations').dropColumn('second_factor_grace_days').execute();
  await db.schema.alterTable('organizations').dropColumn('second_factor_required_at').execute();
}
