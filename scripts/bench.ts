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
import { createOrganizationsBulk } from '../server/services/organizations';
import type { OrganizationsListAnswer } from '../plugins/switch-org/contract';

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

/** Memberships of the two organisation-list users: the list's p99 must not grow with them (target ≤ 1.3×). */
const ORG_LIST_SIZES = [100, 10_000] as const;
const ORG_LIST = '/individual/proxy/my/organizations';

/** A signed-in bench user: what a browser would send with a state-changing call. */
interface BenchSession {
  id: string;
  headers: Record<string, string>;
}

/** Signs a bench user in; the answer carries its id, session cookie and CSRF token. */
async function signIn(base: string, username: string, password: string): Promise<BenchSession> {
  const headers = { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' };
  const res = await fetch(`${base}/users/ajax/login`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ username, password }),
  });
  if (res.status !== 200) throw new Error(`bench sign-in of ${username} failed: ${res.status}`);
  const body = (await res.json()) as { csrf_token: string };
  const cookie = res.headers.getSetCookie()[0].split(';')[0];
  const me = await fetch(`${base}/individual/proxy/me`, { headers: { cookie } });
  return {
    id: ((await me.json()) as { id: string }).id,
    headers: { ...headers, cookie, 'x-csrf-token': body.csrf_token },
  };
}

/**
 * The `next_token` of the page starting in the middle of the user's list (`skip` organisations in), reached
 * through the list itself, so the middle page's run measures a real keyset position deep in the index.
 */
async function middleToken(base: string, user: BenchSession, skip: number): Promise<string> {
  let token: string | null = null;
  for (let left = skip; left > 0; left -= 50) {
    const res: Response = await fetch(`${base}${ORG_LIST}`, {
      method: 'POST',
      headers: user.headers,
      body: JSON.stringify({ user_id: user.id, pagination: { page_size: Math.min(50, left), next_token: token } }),
    });
    if (res.status !== 200) throw new Error(`organisation list answered ${res.status}`);
    token = ((await res.json()) as OrganizationsListAnswer).pages.next_token;
    if (!token) throw new Error('the organisation list ended before its middle');
  }
  return token!;
}

/** `npm run bench`: authenticated /me vs a bare Fastify route, sign-in latency with the real argon2id cost, and
 * the organisation list's p99 at 100 and 10,000 memberships (first and middle page). */
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
    // Organisation-list users, seeded with batched INSERTs: orgs-100 and orgs-10000 (their own organisations).
    for (const n of ORG_LIST_SIZES) {
      const u = await createUser(app.ctx, { username: `orgs-${n}`, password });
      const names = Array.from({ length: n }, (_, i) => `Bench ${n} Org ${String((i * 7919) % n).padStart(5, '0')}`);
      await createOrganizationsBulk(app.ctx, { names, memberIds: [u.id], apps: ['codeup'] });
    }
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
    const orgUsers = await Promise.all(ORG_LIST_SIZES.map((n) => signIn(base, `orgs-${n}`, password)));
    const orgBodies = await Promise.all(
      ORG_LIST_SIZES.map(async (n, i) => ({
        first: JSON.stringify({ user_id: orgUsers[i].id, pagination: { page_size: 50 } }),
        middle: JSON.stringify({
          user_id: orgUsers[i].id,
          pagination: { page_size: 50, next_token: await middleToken(base, orgUsers[i], n / 2 - 25) },
        }),
      })),
    );
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
    const orgRuns: Record<'first' | 'middle', Run[]> = { first: [], middle: [] };
    // The first measured run must not pay for the route's warm-up (JIT, statement cache) alone.
    await cannon('warm-up', `${base}${ORG_LIST}`, {
      connections: 2,
      method: 'POST',
      headers: orgUsers[0].headers,
      body: orgBodies[0].first,
    });
    for (const which of ['first', 'middle'] as const) {
      for (const [i, n] of ORG_LIST_SIZES.entries()) {
        const run = await cannon(`POST my/organizations ${which}, ${n} orgs`, `${base}${ORG_LIST}`, {
          method: 'POST',
          headers: orgUsers[i].headers,
          body: orgBodies[i][which],
        });
        orgRuns[which].push(run);
        runs.push(run);
      }
    }

    const pad = (s: string | number, n: number) => String(s).padEnd(n);
    console.log(`\n${pad('route', 44)}${pad('req/s', 10)}${pad('p50 ms', 9)}${pad('p99 ms', 9)}non-2xx/errors`);
    for (const r of runs)
      console.log(
        `${pad(r.label, 44)}${pad(r.rps.toFixed(0), 10)}${pad(r.p50, 9)}${pad(r.p99, 9)}${r.non2xx}/${r.errors}`,
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
    for (const which of ['first', 'middle'] as const) {
      const [few, many] = orgRuns[which];
      const orgRatio = many.p99 / few.p99;
      console.log(
        `organisation list ${which} page p99: ${few.p99} ms at ${ORG_LIST_SIZES[0]} memberships, ${many.p99} ms at ` +
          `${ORG_LIST_SIZES[1]} = ${orgRatio.toFixed(2)}× (target ≤ 1.3×): ${orgRatio <= 1.3 ? 'ok' : 'MISSED'}`,
      );
    }
    if (runs.some((r) => r.non2xx || r.errors))
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
