// Test fixture of the second factor's unit tests: a migrated temp database (SQLite, or a PostgreSQL schema of its own
// when DATABASE_URL is set, as `npm run test:pg` does), a manual clock and the service built on them.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { ManualClock } from '../../clock';
import { dropPgSchema, migrateToLatest, openDatabase, type Database } from '../../db/index';
import { discoverServerPlugins } from '../../plugin-loader';
import { createSecondFactors, type SecondFactorDeps, type SecondFactorService } from './index';

/** A migrated database with the second factor on it; `close` removes everything. */
export interface FactorFixture {
  database: Database;
  clock: ManualClock;
  dataDir: string;
  factors: SecondFactorService;
  /** Builds another service on the same database (other configuration: a key, an origin). */
  build(config?: Partial<SecondFactorDeps['config']>): SecondFactorService;
  /** Adds an account; answers its id. */
  user(username: string): Promise<string>;
  close(): Promise<void>;
}

/** Opens a fresh database for one test file. */
export async function factorFixture(config: Partial<SecondFactorDeps['config']> = {}): Promise<FactorFixture> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'account-2fa-'));
  const databaseUrl = process.env.DATABASE_URL;
  const pgSchema = databaseUrl ? `t_2fa_${crypto.randomBytes(4).toString('hex')}` : undefined;
  const database = await openDatabase({ dataDir, databaseUrl, pgSchema });
  await migrateToLatest(database.db, pgSchema, await discoverServerPlugins());
  const clock = new ManualClock(Date.UTC(2026, 10, 27, 12, 0, 10));
  const build = (more: Partial<SecondFactorDeps['config']> = {}) =>
    createSecondFactors({
      db: database.db,
      clock,
      config: { dataDir, port: 3000, ...config, ...more },
      issuer: 'Test',
    });
  let n = 0;
  return {
    database,
    clock,
    dataDir,
    factors: build(),
    build,
    async user(username) {
      const id = `u${String(++n).padStart(23, '0')}`;
      await sql`insert into users (id, username, username_lower, name, must_change_password, created_at, updated_at)
        values (${id}, ${username}, ${username.toLowerCase()}, ${username}, 0, 1, 1)`.execute(database.db);
      return id;
    },
    async close() {
      await database.close();
      if (databaseUrl && pgSchema) await dropPgSchema(databaseUrl, pgSchema);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
