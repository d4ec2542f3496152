// What every section of `npm run bench` starts from: a service on its own database (a temp SQLite file, or its own
// schema of BENCH_DATABASE_URL) and the load generator (autocannon in its own process, so it does not steal the
// service's event loop). One copy, so the sections measure the same kind of service the same way.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { dropPgSchema } from '../../server/db/index';
import type { HashParams } from '../../server/auth/passwords';
import type { AppContext } from '../../server/context';

/** Summary of one autocannon run. */
export interface BenchRun {
  label: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

/** What a run sends besides its URL. */
export interface CannonOptions {
  connections?: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

/** The load generator a section measures with. */
export type Cannon = (label: string, url: string, opts?: CannonOptions) => Promise<BenchRun>;

/** Seconds per run (BENCH_DURATION, default 5). */
export const BENCH_DURATION = Number(process.env.BENCH_DURATION ?? 5);
/** Connections per run (BENCH_CONNECTIONS, default 10). */
export const BENCH_CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

const require = createRequire(import.meta.url);
const autocannonBin = path.join(path.dirname(require.resolve('autocannon/package.json')), 'autocannon.js');

/** One autocannon run of BENCH_DURATION seconds against `url`, in its own process. */
export const cannon: Cannon = (label, url, opts = {}) => {
  const args = [autocannonBin, '-j', '-c', String(opts.connections ?? BENCH_CONNECTIONS), '-d', String(BENCH_DURATION)];
  if (opts.method) args.push('-m', opts.method);
  for (const [k, v] of Object.entries(opts.headers ?? {})) args.push('-H', `${k}=${v}`);
  if (opts.body) args.push('-b', opts.body);
  args.push(url);
  return new Promise<BenchRun>((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited ${code}`));
      const r = JSON.parse(out) as {
        requests: { average: number };
        latency: { p50: number; p99: number };
        non2xx: number;
        errors: number;
      };
      resolve({
        label,
        rps: r.requests.average,
        p50: r.latency.p50,
        p99: r.latency.p99,
        non2xx: r.non2xx,
        errors: r.errors,
      });
    });
  });
};

/** Hashing cheap enough that seeding sign-ins cost nothing (sections that do not measure sign-in). */
export const CHEAP_HASH: HashParams = { memoryCost: 64, timeCost: 1, parallelism: 1 };

/** A bench service: seed through `ctx`, then `listen()` for its base URL; `close()` removes its database. */
export interface BenchService {
  app: FastifyInstance;
  ctx: AppContext;
  /** Starts listening on a loopback port; answers `http://127.0.0.1:<port>`. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

/**
 * Starts a service for a section (`name` tells its temp directory and PostgreSQL schema apart); cheap hashing and no
 * scheduled passes unless asked.
 */
export async function benchService(
  name: string,
  opts: { hashParams?: HashParams; scheduler?: boolean } = {},
): Promise<BenchService> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `account-bench-${name}-`));
  const databaseUrl = process.env.BENCH_DATABASE_URL || undefined;
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, DATABASE_URL: databaseUrl ?? '' });
  const pgSchema = databaseUrl ? `bench_${name.replace(/\W/g, '_')}_${process.pid}` : undefined;
  const app = await buildApp({
    ...config,
    pgSchema,
    hashParams: opts.hashParams ?? CHEAP_HASH,
    logger: false,
    ...(opts.scheduler ? {} : { scheduler: false }),
  });
  return {
    app,
    ctx: app.ctx,
    async listen() {
      await app.listen({ port: 0, host: '127.0.0.1' });
      return `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    },
    async close() {
      await app.close();
      if (pgSchema && databaseUrl) await dropPgSchema(databaseUrl, pgSchema);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
