import type { Kysely } from 'kysely';

/**
 * What a code mailed to the current address proves: an e-mail change (`email`, every code sent before) or setting the
 * account's first password (`password`). A code proves only the purpose it was mailed for, and its mail says which.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('email_change_codes')
    .addColumn('purpose', 'varchar(16)', (c) => c.notNull().defaultTo('email'))
    .execute();
}

/** Drops the column. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('email_change_codes').dropColumn('purpose').execute();
}
