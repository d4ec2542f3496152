import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { allMigrations, dropPgSchema, migrateToLatest, openDatabase } from './index';
import { discoverServerPlugins } from '../plugin-loader';

// Migration 065 on a database with live sessions (an upgrade while people are signed in): each gets its own random
// public handle and `unknown` as its sign-in method, and nobody is signed out. SQLite here, PostgreSQL in test:pg.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'account-065-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('migration 065-session-details', () => {
  it('gives every live session a distinct random handle and the method unknown, keeping the sessions', async () => {
    const databaseUrl = process.env.DATABASE_URL;
    const pgSchema = databaseUrl ? `t_065_${crypto.randomBytes(4).toString('hex')}` : undefined;
    const database = await openDatabase({ dataDir: dir, databaseUrl, pgSchema });
    try {
      const plugins = await discoverServerPlugins();
      const all = allMigrations(plugins);
      const before = Object.fromEntries(Object.entries(all).filter(([name]) => name < '065'));
      const old = new Migrator({
        db: database.db,
        provider: { getMigrations: async () => before },
        ...(pgSchema ? { migrationTableSchema: pgSchema } : {}),
      });
      expect((await old.migrateToLatest()).error).toBeUndefined();
      await sql`insert into users (id, username, username_lower, name, must_change_password, created_at, updated_at)
        values ('u1', 'ada', 'ada', 'Ada', 0, 1, 1)`.execute(database.db);
      for (const h of ['h1', 'h2', 'h3'])
        await sql`insert into sessions (id_hash, user_id, csrf_token, created_at, last_seen_at)
          values (${h}, 'u1', 'csrf', 1, 1)`.execute(database.db);

      expect(await migrateToLatest(database.db, pgSchema, plugins)).toContain('065-session-details');
      const rows = await database.db
        .selectFrom('sessions')
        .select(['id_hash', 'handle', 'method', 'user_agent', 'address'])
        .orderBy('id_hash')
        .execute();
      expect(rows.map((r) => r.id_hash)).toEqual(['h1', 'h2', 'h3']);
      for (const r of rows) {
        expect(r.handle).toMatch(/^[0-9a-f]{32}$/);
        expect(r).toMatchObject({ method: 'unknown', user_agent: null, address: null });
      }
      expect(new Set(rows.map((r) => r.handle)).size).toBe(3);
    } finally {
      await database.close();
      if (pgSchema && databaseUrl) await dropPgSchema(databaseUrl, pgSchema);
    }
  });
});
