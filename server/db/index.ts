import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, Migrator, SqliteDialect, type Migration } from 'kysely';
import type { DB } from './schema';
import { OwnSchemaPostgresDialect } from './pg-introspector';
import type { ServerPlugin } from '../plugin';
import { discoverServerPlugins } from '../plugin-loader';
import * as m001 from './migrations/001-initial';
import * as m002 from './migrations/002-usage-logs';
import * as m032 from './migrations/032-identities';
import * as m040 from './migrations/040-org-policies';
import * as m050 from './migrations/050-captcha-rate-limits';
import * as m060 from './migrations/060-device-lockout';
import * as m064 from './migrations/064-color-scheme';
import * as m065 from './migrations/065-session-details';
import * as m066 from './migrations/066-session-proofs';
import * as m069 from './migrations/069-account-holds';
import * as m070 from './migrations/070-second-factors';
import * as m071 from './migrations/071-org-second-factor';
import * as m073 from './migrations/073-credential-uses';

/** Which engine a database runs on; a few statements differ (e.g. nothing yet, but callers may ask). */
export type DialectName = 'sqlite' | 'postgres';

/** An open database plus what is needed to close it. */
export interface Database {
  /** The typed query builder every service uses. */
  db: Kysely<DB>;
  /** Engine behind `db`. */
  dialect: DialectName;
  /**
   * The raw SQLite handle, for the few per-request point reads where Kysely's async pipeline
   * costs more than the read itself (see SessionStore). Undefined on PostgreSQL.
   */
  sqlite?: SQLite.Database;
  /** Closes connections (and the SQLite file). */
  close(): Promise<void>;
}

/** Where the data lives: a SQLite file under dataDir, or PostgreSQL when a URL is given. */
export interface DatabaseOptions {
  dataDir: string;
  databaseUrl?: string;
  /** PostgreSQL schema to use (created if missing); lets test files share one cluster without colliding. */
  pgSchema?: string;
  /** SQLite file name inside dataDir. */
  sqliteFile?: string;
}

/**
 * The core's versioned migrations; the same list runs on both dialects. Slices bring their own
 * (`defineServerPlugin({ migrations })`) and `allMigrations` orders them together by name. Names already
 * recorded in existing databases never change: `010-profile` now lives in the profile slice and
 * `030-credentials` in ssh-keys (it creates only `ssh_keys` on a new database; older databases ran the
 * original, which also made `packages_credentials` and `identities`, hence `IF NOT EXISTS` in
 * `031-packages-credential` and `032-identities`). `personal_access_tokens` stays in `001-initial`
 * although the access-tokens slice owns the table: moving it would rewrite a recorded migration.
 */
export const coreMigrations: Record<string, Migration> = {
  '001-initial': m001,
  '002-usage-logs': m002,
  '032-identities': m032,
  '040-org-policies': m040,
  '050-captcha-rate-limits': m050,
  '060-device-lockout': m060,
  '064-color-scheme': m064,
  '065-session-details': m065,
  '066-session-proofs': m066,
  '069-account-holds': m069,
  '070-second-factors': m070,
  '071-org-second-factor': m071,
  '073-credential-uses': m073,
};

/** Core and slice migrations in one name-ordered map; a name used twice is refused (Kysely keys by name). */
export function allMigrations(plugins: readonly ServerPlugin[]): Record<string, Migration> {
  const owner = new Map<string, string>(Object.keys(coreMigrations).map((n) => [n, 'the core']));
  const merged: Record<string, Migration> = { ...coreMigrations };
  for (const p of plugins) {
    for (const [name, m] of Object.entries(p.migrations ?? {})) {
      const other = owner.get(name);
      if (other) throw new Error(`migration "${name}" of plugin "${p.id}" is already defined by ${other}`);
      owner.set(name, `plugin "${p.id}"`);
      merged[name] = m;
    }
  }
  return Object.fromEntries(Object.entries(merged).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Opens the configured database with the durability settings the service relies on. */
export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  if (opts.databaseUrl) {
    // bigint columns hold epoch milliseconds, well inside Number's exact range.
    const types = {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === 20
          ? (v: string) => Number(v)
          : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    };
    if (opts.pgSchema) {
      if (!/^[a-z_][a-z0-9_]*$/.test(opts.pgSchema)) throw new Error(`invalid schema name ${opts.pgSchema}`);
      const c = new pg.Client({ connectionString: opts.databaseUrl });
      await c.connect();
      try {
        await c.query(`CREATE SCHEMA IF NOT EXISTS "${opts.pgSchema}"`);
      } finally {
        await c.end();
      }
    }
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: 10,
      types,
      ...(opts.pgSchema ? { options: `-c search_path=${opts.pgSchema}` } : {}),
    });
    const db = new Kysely<DB>({ dialect: new OwnSchemaPostgresDialect({ pool }) });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  fs.mkdirSync(opts.dataDir, { recursive: true });
  const file = path.join(opts.dataDir, opts.sqliteFile ?? 'account.db');
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return { db, dialect: 'sqlite', sqlite, close: () => db.destroy() };
}

/**
 * Kysely prepares every query anew; preparing costs more than running a point lookup. Statements are
 * reused per SQL text (safe: Kysely runs one query at a time on the single SQLite connection).
 */
function withStatementCache(sqlite: SQLite.Database): SQLite.Database {
  const cache = new Map<string, SQLite.Statement>();
  return new Proxy(sqlite, {
    get(target, prop, receiver) {
      if (prop === 'prepare') {
        return (source: string) => {
          let stmt = cache.get(source);
          if (!stmt) {
            stmt = target.prepare(source);
            if (cache.size < 1000) cache.set(source, stmt);
          }
          return stmt;
        };
      }
      const v = Reflect.get(target, prop, receiver) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

/**
 * Brings the schema to the latest version; safe to run from several instances at once (Kysely locks).
 * Runs the core's and every discovered slice's migrations (not only the edition's, see plugin-loader).
 */
export async function migrateToLatest(
  db: Kysely<DB>,
  pgSchema?: string,
  plugins?: readonly ServerPlugin[],
): Promise<string[]> {
  const migrations = allMigrations(plugins ?? (await discoverServerPlugins()));
  // With several schemas in one database, Kysely must look for its bookkeeping tables in ours only.
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(pgSchema ? { migrationTableSchema: pgSchema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Drops a PostgreSQL schema created for a test run. */
export async function dropPgSchema(databaseUrl: string, schema: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name ${schema}`);
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await c.end();
  }
}
