import type { Kysely } from 'kysely';

/**
 * The browser a device mark was given to, so the security page can name the browsers the lockout trusts (issue 40):
 * its name, major version and operating system as its User-Agent told them at the sign-in that made or renewed the
 * mark (never the User-Agent itself). Only rows of kind `mark` fill them; marks from before stay null ("unknown
 * browser") until their browser signs in again. Portable types only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [column, width] of [
    ['browser_name', 64],
    ['browser_version', 16],
    ['browser_os', 64],
  ] as const) {
    await db.schema.alterTable('sign_in_devices').addColumn(column, `varchar(${width})`).execute();
  }
}

/** Drops the columns. */
export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ['browser_os', 'browser_version', 'browser_name'])
    await db.schema.alterTable('sign_in_devices').dropColumn(column).execute();
}
