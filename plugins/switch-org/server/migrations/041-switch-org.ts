import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * The organisation chooser pages a user's memberships by organisation name (keyset on (name_lower, id)).
 * The name lives in `organizations`, so no index on `memberships` could serve that order: a user with
 * 10,000 memberships would have every page join and sort all 10,000. This copies the sort key onto the
 * membership (`org_name_lower`, byte order on both engines: COLLATE "C" on PostgreSQL, SQLite's BINARY) and
 * indexes (user_id, org_name_lower, org_id), so a page is one index range of 51 entries whatever the count.
 * Triggers keep the copy right: a new membership takes its organisation's name, a renamed organisation
 * updates its memberships, so the core and the CLI keep inserting memberships as before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  if (postgres) {
    await sql`ALTER TABLE memberships ADD COLUMN org_name_lower varchar(200) COLLATE "C"`.execute(db);
    await sql`
      CREATE OR REPLACE FUNCTION memberships_fill_org_name() RETURNS trigger AS $$
      BEGIN
        NEW.org_name_lower := (SELECT o.name_lower FROM organizations o WHERE o.id = NEW.org_id);
        RETURN NEW;
      END $$ LANGUAGE plpgsql`.execute(db);
    await sql`
      CREATE TRIGGER memberships_org_name BEFORE INSERT OR UPDATE OF org_id ON memberships
      FOR EACH ROW EXECUTE FUNCTION memberships_fill_org_name()`.execute(db);
    await sql`
      CREATE OR REPLACE FUNCTION organizations_propagate_name() RETURNS trigger AS $$
      BEGIN
        UPDATE memberships SET org_name_lower = NEW.name_lower WHERE org_id = NEW.id;
        RETURN NEW;
      END $$ LANGUAGE plpgsql`.execute(db);
    await sql`
      CREATE TRIGGER organizations_name_to_memberships AFTER UPDATE OF name_lower ON organizations
      FOR EACH ROW WHEN (OLD.name_lower IS DISTINCT FROM NEW.name_lower)
      EXECUTE FUNCTION organizations_propagate_name()`.execute(db);
  } else {
    await sql`ALTER TABLE memberships ADD COLUMN org_name_lower varchar(200)`.execute(db);
    await sql`
      CREATE TRIGGER memberships_org_name AFTER INSERT ON memberships
      BEGIN
        UPDATE memberships SET org_name_lower = (SELECT o.name_lower FROM organizations o WHERE o.id = NEW.org_id)
        WHERE org_id = NEW.org_id AND user_id = NEW.user_id;
      END`.execute(db);
    await sql`
      CREATE TRIGGER memberships_org_moved AFTER UPDATE OF org_id ON memberships
      BEGIN
        UPDATE memberships SET org_name_lower = (SELECT o.name_lower FROM organizations o WHERE o.id = NEW.org_id)
        WHERE org_id = NEW.org_id AND user_id = NEW.user_id;
      END`.execute(db);
    await sql`
      CREATE TRIGGER organizations_name_to_memberships AFTER UPDATE OF name_lower ON organizations
      BEGIN
        UPDATE memberships SET org_name_lower = NEW.name_lower WHERE org_id = NEW.id;
      END`.execute(db);
  }
  await sql`
    UPDATE memberships SET org_name_lower = (SELECT o.name_lower FROM organizations o WHERE o.id = memberships.org_id)
  `.execute(db);
  await db.schema
    .createIndex('memberships_user_org_name_idx')
    .on('memberships')
    .columns(['user_id', 'org_name_lower', 'org_id'])
    .execute();
}

/** Drops the index, the triggers and the copied column. */
export async function down(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.dropIndex('memberships_user_org_name_idx').ifExists().execute();
  if (postgres) {
    await sql`DROP TRIGGER IF EXISTS memberships_org_name ON memberships`.execute(db);
    await sql`DROP TRIGGER IF EXISTS organizations_name_to_memberships ON organizations`.execute(db);
    await sql`DROP FUNCTION IF EXISTS memberships_fill_org_name()`.execute(db);
    await sql`DROP FUNCTION IF EXISTS organizations_propagate_name()`.execute(db);
  } else {
    for (const t of ['memberships_org_name', 'memberships_org_moved', 'organizations_name_to_memberships'])
      await sql`DROP TRIGGER IF EXISTS ${sql.id(t)}`.execute(db);
  }
  await sql`ALTER TABLE memberships DROP COLUMN org_name_lower`.execute(db);
}
