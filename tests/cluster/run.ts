// `npm run cluster` (tests/cluster/run.ts): several service instances on one PostgreSQL behind Debian's nginx on loopback, and the
// multi-instance checks with their figures: a sign-in burst spread over the instances (the lockout must stay exact),
// and a rolling restart (stop one instance, start it, then the next) under a write load (no acknowledged write
// lost, no request failed that nginx could retry). Run through scripts/with-postgres.sh (the npm script does).
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { createUser } from '../../server/services/accounts';
import { TEST_HASH_PARAMS } from '../kit/server';
import { encryptAnswer, humanTrack, puzzleGap, TEST_UMID } from '../kit/captcha';
import { NGINX, startNginx } from '../../scripts/lib/nginx';

const INSTANCES = Number(process.env.CLUSTER_INSTANCES ?? 2);
const ROOT = path.resolve(import.meta.dirname, '../..');
const DIST = path.join(ROOT, 'tests/fixtures/server/web-dist');
const USER = { username: 'cluster-user', password: 'Cluster#pass1' };

if (!process.env.DATABASE_URL) {
  console.error('cluster: DATABASE_URL is not set; run `npm run cluster` (it starts PostgreSQL)');
  process.exit(2);
}
if (!NGINX) {
  console.error('cluster: nginx is missing; `npm run setup` installs it (as root, via apt)');
  process.exit(2);
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'account-cluster-'));
const children = new Map<number, ChildProcess>();
let proxy: { stop(): void } | undefined;

/** One factor key for every instance, as an operator configures it (each has its own DATA_DIR, so no shared file). */
const SECOND_FACTOR_KEY = crypto.randomBytes(32).toString('base64');

/** Starts instance `i` on `port` (the service's own entry point) and resolves once it listens. */
function startInstance(i: number, port: number): Promise<void> {
  const dataDir = path.join(work, `instance-${i}`);
  fs.mkdirSync(dataDir, { recursive: true });
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/main.ts')], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DIST_DIR: DIST,
      TRUST_PROXY: 'loopback',
      EDITION: 'vpc',
      SECOND_FACTOR_KEY,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.set(i, child);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`instance ${i} did not start`)), 60_000);
    child.stdout!.on('data', (b: Buffer) => {
      if (/listening on/.test(b.toString())) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr!.on('data', (b: Buffer) => process.stderr.write(`[instance ${i}] ${b}`));
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (children.get(i) === child) children.delete(i);
      reject(new Error(`instance ${i} exited with ${code}`));
    });
  });
}

/** Stops instance `i` as an operator would (SIGTERM: in-flight requests finish, new ones go elsewhere). */
async function stopInstance(i: number): Promise<void> {
  const child = children.get(i);
  if (!child) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

async function post(base: string, p: string, body: unknown, ip: string) {
  const res = await fetch(base + p, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest', 'x-forwarded-for': ip },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json().catch(() => null)) as { code?: string } | null };
}

async function main() {
  // Migrate and seed once, as an operator's first start would.
  const config = loadConfig({ ...process.env, DATA_DIR: work, DIST_DIR: DIST, SECOND_FACTOR_KEY });
  const setup = await buildApp({ ...config, logger: false, hashParams: TEST_HASH_PARAMS });
  await createUser(setup.ctx, { username: USER.username, password: USER.password }).catch(() => undefined);
  await createUser(setup.ctx, { username: 'cluster-reader', password: USER.password }).catch(() => undefined);
  await setup.close();

  const ports = await Promise.all(Array.from({ length: INSTANCES }, freePort));
  await Promise.all(ports.map((p, i) => startInstance(i, p)));
  const listen = await freePort();
  proxy = startNginx(work, { listen, upstreams: ports });
  const base = `http://127.0.0.1:${listen}`;
  console.log(`cluster: ${INSTANCES} instances on PostgreSQL behind nginx at ${base}`);

  // 1. The lockout burst: 100 parallel wrong passwords for one name, from 100 addresses, over every instance.
  const burst = await Promise.all(
    Array.from({ length: 100 }, (_, i) =>
      post(base, '/users/ajax/login', { username: USER.username, password: `Wrong#${i}xx` }, `198.51.100.${i + 1}`),
    ),
  );
  const byCode = new Map<string, number>();
  for (const a of burst)
    byCode.set(`${a.status} ${a.json?.code ?? ''}`, (byCode.get(`${a.status} ${a.json?.code ?? ''}`) ?? 0) + 1);
  const evaluated = burst.filter((a) => a.status === 401).length;
  let evaluatedWithPasses = 0;
  let limited = 0;
  let sessionReads = 0;
  console.log(
    `lockout burst: 100 parallel over ${INSTANCES} instances → ${[...byCode].map(([k, n]) => `${n} × ${k}`).join(', ')}`,
  );
  console.log(`  passwords evaluated: ${evaluated} (at most 2 without slider passes)`);

  // 1b. The same burst with a solved slider per attempt (answers read from the database, as a person sees the gap).
  const keep = await buildApp({ ...config, logger: false, hashParams: TEST_HASH_PARAMS });
  await keep.ctx.lockout.unlock(USER.username);
  const passes: string[] = [];
  for (let i = 0; i < 100; i++) {
    const ip = `192.0.2.${i + 1}`;
    const puzzle = await post(base, `/users/ajax/users/${USER.username}/sliderCaptcha`, {}, ip);
    const id = (puzzle.json as { captcha_id: string }).captcha_id;
    const x = await puzzleGap(keep.ctx, id);
    const data = encryptAnswer({ x, track: humanTrack(x), kind: 'pointer', umid: TEST_UMID }, Date.now());
    const pass = await post(
      base,
      `/users/ajax/users/${USER.username}/sliderCaptcha:verify`,
      { captcha_id: id, data },
      ip,
    );
    passes.push((pass.json as unknown as { pass: string }).pass);
  }
  await keep.close();
  const withPasses = await Promise.all(
    passes.map((captcha_pass, i) =>
      post(
        base,
        '/users/ajax/login',
        { username: USER.username, password: `Wrong#${i}yy`, captcha_pass },
        `198.51.100.${i + 101}`,
      ),
    ),
  );
  const codes = new Map<string, number>();
  for (const a of withPasses)
    codes.set(`${a.status} ${a.json?.code ?? ''}`, (codes.get(`${a.status} ${a.json?.code ?? ''}`) ?? 0) + 1);
  evaluatedWithPasses = withPasses.filter((a) => a.status === 401).length + 1;
  console.log(`lockout burst with 100 slider passes → ${[...codes].map(([k, n]) => `${n} × ${k}`).join(', ')}`);
  console.log(`  passwords evaluated: ${evaluatedWithPasses} (4 refused and the 5th, which set the lock; at most 5)`);

  // 1c. A per-address limit across instances: 50 parallel account checks from one address, 10 a minute allowed.
  const checks = await Promise.all(
    Array.from({ length: 50 }, () =>
      fetch(`${base}/users/ajax/users/${USER.username}/check`, {
        headers: { 'x-captcha-pass': 'not-a-pass', 'x-forwarded-for': '192.0.2.250' },
      }).then((r) => r.status),
    ),
  );
  limited = checks.filter((st) => st === 429).length;
  console.log(
    `account-check limit over ${INSTANCES} instances: ${50 - limited} answered, ${limited} × 429 (10 a minute allowed)`,
  );

  // 1d. One session, every instance: a sign-in through nginx, then 20 reads spread over the instances.
  const signIn = await fetch(`${base}/users/ajax/login`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-requested-with': 'XMLHttpRequest',
      'x-forwarded-for': '192.0.2.251',
    },
    body: JSON.stringify({ username: 'cluster-reader', password: USER.password }),
  });
  const cookie = signIn.headers.getSetCookie()[0]?.split(';')[0] ?? '';
  const reads = await Promise.all(
    Array.from({ length: 20 }, () =>
      fetch(`${base}/individual/proxy/me`, { headers: { cookie } }).then((r) => r.status),
    ),
  );
  sessionReads = reads.filter((st) => st === 200).length;
  console.log(
    `one session over ${INSTANCES} instances: sign-in ${signIn.status}, ${sessionReads} of 20 reads answered 200`,
  );

  // 2. Rolling restart under a write load: 8 writers post marked log entries through nginx.
  let running = true;
  const acked: string[] = [];
  const failed: string[] = [];
  let sent = 0;
  const writer = async (w: number) => {
    for (let i = 0; running; i++) {
      const marker = `w${w}-${i}`;
      sent++;
      try {
        const a = await post(base, '/api/logs', [{ type: 'event', marker }], `203.0.113.${(i % 200) + 1}`);
        if (a.status === 204) acked.push(marker);
        else failed.push(`${marker}: ${a.status} ${a.json?.code ?? ''}`);
      } catch (e) {
        failed.push(`${marker}: ${(e as Error).message}`);
      }
    }
  };
  const writers = Array.from({ length: 8 }, (_, w) => writer(w));
  for (let i = 0; i < INSTANCES; i++) {
    await new Promise((r) => setTimeout(r, 1000));
    await stopInstance(i);
    await new Promise((r) => setTimeout(r, 500));
    await startInstance(i, ports[i]);
  }
  await new Promise((r) => setTimeout(r, 1000));
  running = false;
  await Promise.all(writers);

  const check = await buildApp({ ...config, logger: false, hashParams: TEST_HASH_PARAMS });
  const rows = await check.ctx.db.selectFrom('usage_logs').select('entry').execute();
  const stored = new Set(rows.map((r) => (JSON.parse(r.entry) as { marker?: string }).marker));
  const lost = acked.filter((m) => !stored.has(m));
  const lock = await check.ctx.db
    .selectFrom('login_failures')
    .select(['count', 'locked_until'])
    .where('username', '=', USER.username)
    .executeTakeFirst();
  await check.close();
  console.log(
    `rolling restart of ${INSTANCES} instances under load: ${sent} writes sent, ${acked.length} acknowledged, ` +
      `${lost.length} lost, ${failed.length} failed`,
  );
  for (const f of failed.slice(0, 5)) console.log(`  failed: ${f}`);
  if (failed.length) {
    const log = fs.readFileSync(path.join(work, 'nginx-error.log'), 'utf8').trim().split('\n');
    for (const line of log.slice(-6)) console.log(`  nginx: ${line.slice(0, 240)}`);
  }
  console.log(`  lockout counter after the burst: ${lock?.count ?? 0}`);
  const ok =
    evaluated <= 2 &&
    evaluatedWithPasses <= 5 &&
    limited === 40 &&
    sessionReads === 20 &&
    lost.length === 0 &&
    failed.length === 0;
  console.log(ok ? 'cluster: all checks passed' : 'cluster: CHECKS FAILED');
  return ok;
}

let ok = false;
try {
  ok = await main();
} catch (e) {
  console.error(e);
} finally {
  try {
    proxy?.stop();
  } catch {
    // already gone
  }
  for (const i of [...children.keys()]) await stopInstance(i);
  fs.rmSync(work, { recursive: true, force: true });
}
process.exit(ok ? 0 : 1);
