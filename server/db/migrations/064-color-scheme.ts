import { sql, type Kysely } from 'kysely';

/**
 * The account's colour scheme (issue 39, dark mode): `system` (follow the device; every existing account), `light`
 * or `dark`. The check keeps any other value out whichever path writes it; the service answers a bad one with
 * ProfileColorSchemeInvalid before it gets here. Portable: the same statement runs on SQLite and PostgreSQL.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('color_scheme', 'varchar(8)', (c) =>
      c
        .notNull()
        .defaultTo('system')
        .check(sql`color_scheme in ('system', 'light', 'dark')`),
    )
    .execute();
}

/** Drops the column. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('color_scheme').execute();
}
