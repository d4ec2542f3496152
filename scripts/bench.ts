import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import Fastify from 'fastify';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { DEFAULT_HASH_PARAMS } from '../server/auth/passwords';
import { createOrg, createUser, installApp } from '../server/services/accounts';

/** Summary of one autocannon run. */
interface Run {
  label: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const require = createRequire(import.meta.url);
const autocannonBin = path.join(path.dirname(require.resolve('autocannon/package.json')), 'autocannon.js');

// autocannon runs in its own process so the load generator does not steal the server's event loop.
function cannon(
  label: string,
  url: string,
  opts: { connections?: number; method?: string; headers?: Record<string, string>; body?: string } = {},
) {
  const args = [autocannonBin, '-j', '-c', String(opts.connections ?? CONNECTIONS), '-d', String(DURATION)];
  if (opts.method) args.push('-m', opts.method);
  for (const [k, v] of Object.entries(opts.headers ?? {})) args.push('-H', `${k}=${v}`);
  if (opts.body) args.push('-b', opts.body);
  args.push(url);
  return new Promise<Run>((resolve, reject) => {
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
}

/** `npm run bench`: authenticated /me vs a bare Fastify route, plus sign-in latency with the real argon2id cost. */
async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'account-bench-'));
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, DATABASE_URL: process.env.BENCH_DATABASE_URL ?? '' });
  const app = await buildApp({ ...config, hashParams: DEFAULT_HASH_PARAMS, logger: false });
  const bare = Fastify({ logger: false });
  bare.get('/bare', async () => ({ hello: 'world' }));
  try {
    await createOrg(app.ctx, 'Bench');
    await installApp(app.ctx, 'Bench', 'codeup');
    const password = 'Bench#12345';
    await createUser(app.ctx, { username: 'bench', password, org: 'Bench' });
    await app.listen({ port: 0, host: '127.0.0.1' });
    await bare.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    const bareUrl = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}/bare`;
    const loginBody = JSON.stringify({ username: 'bench', password });
    const loginHeaders = { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' };
    const res = await fetch(`${base}/users/ajax/login`, { method: 'POST', headers: loginHeaders, body: loginBody });
    if (res.status !== 200) throw new Error(`bench sign-in failed: ${res.status}`);
    const cookie = res.headers.getSetCookie()[0].split(';')[0];

    console.log(
      `Benchmark: ${DURATION}s per run, ${CONNECTIONS} connections, SQLite in ${dataDir}, argon2id m=${DEFAULT_HASH_PARAMS.memoryCost} t=${DEFAULT_HASH_PARAMS.timeCost} p=${DEFAULT_HASH_PARAMS.parallelism}`,
    );
    await cannon('warm-up', bareUrl, { connections: 2 });
    const runs: Run[] = [];
    runs.push(await cannon('bare Fastify GET /bare', bareUrl));
    runs.push(
      await cannon('GET /individual/proxy/me (session)', `${base}/individual/proxy/me?with_email_info=true`, {
        headers: { cookie },
      }),
    );
    runs.push(
      await cannon('POST /users/ajax/login (1 conn)', `${base}/users/ajax/login`, {
        connections: 1,
        method: 'POST',
        headers: loginHeaders,
        body: loginBody,
      }),
    );
    runs.push(
      await cannon(`POST /users/ajax/login (${CONNECTIONS} conn)`, `${base}/users/ajax/login`, {
        method: 'POST',
        headers: loginHeaders,
        body: loginBody,
      }),
    );

    const pad = (s: string | number, n: number) => String(s).padEnd(n);
    console.log(`\n${pad('route', 40)}${pad('req/s', 10)}${pad('p50 ms', 9)}${pad('p99 ms', 9)}non-2xx/errors`);
    for (const r of runs)
      console.log(
        `${pad(r.label, 40)}${pad(r.rps.toFixed(0), 10)}${pad(r.p50, 9)}${pad(r.p99, 9)}${r.non2xx}/${r.errors}`,
      );
    const [bareRun, meRun, login1] = runs;
    const ratio = meRun.rps / bareRun.rps;
    console.log(
      `\nauthenticated /me throughput = ${(ratio * 100).toFixed(1)}% of bare (target ≥ 40%): ${ratio >= 0.4 ? 'ok' : 'MISSED'}`,
    );
    console.log(
      `authenticated /me p99 = ${meRun.p99} ms at ${CONNECTIONS} connections (target ≤ 20 ms): ${meRun.p99 <= 20 ? 'ok' : 'MISSED'}`,
    );
    console.log(`sign-in p50 with real hashing = ${login1.p50} ms (one connection)`);
    if (meRun.non2xx || bareRun.non2xx)
      console.log('warning: some answers were not 2xx; the figures are not trustworthy');
  } finally {
    await app.close();
    await bare.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
