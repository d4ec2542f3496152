// The session list's section of `npm run bench` (BENCH_ONLY=sessions): the caller's "devices and sessions" list with
// 100 sessions in the table and with 100× that, the caller's own the same. Its own file so the sections other work
// adds to scripts/bench.ts do not meet it; bench.ts hands it the load generator.
import crypto from 'node:crypto';
import { createUser, newUserRow } from '../server/services/accounts';
import type { AppContext } from '../server/context';
import { SECURITY_PATHS } from '../plugins/security/contract';
import { listSessions } from '../plugins/security/server/sessions-service';
import { benchService, type BenchRun, type Cannon } from './lib/bench-service';

export type { Cannon } from './lib/bench-service';

/** Summary of one load run, as bench.ts's `cannon` answers it. */
export type SessionsBenchRun = BenchRun;

/** Sessions in the table at each measurement: 1× and 100×; the list's p99 at the second within 1.3× of the first. */
const SESSION_TOTALS = [100, 10_000] as const;
/** The caller's own sessions (what the list shows), the same at both sizes. */
const SESSIONS_OWN = 10;
/** Accounts the other sessions belong to. */
const SESSION_FILLER_USERS = 100;
const ROUNDS = Math.max(1, Number(process.env.BENCH_SESSIONS_ROUNDS ?? 3));
const USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
];

interface SessionsInstance {
  total: number;
  ctx: AppContext;
  base: string;
  callerId: string;
  callerIdHash: string;
  headers: Record<string, string>;
  close(): Promise<void>;
}

/** Signs the caller in from one of the bench's browsers; answers the session's cookie and CSRF token. */
async function signIn(base: string, username: string, password: string, userAgent: string) {
  const res = await fetch(`${base}/users/ajax/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest', 'user-agent': userAgent },
    body: JSON.stringify({ username, password }),
  });
  if (res.status !== 200) throw new Error(`bench sign-in of ${username} failed: ${res.status}`);
  const cookie = res.headers.getSetCookie()[0].split(';')[0];
  return { cookie, csrf: ((await res.json()) as { csrf_token: string }).csrf_token };
}

/** A service on its own database with `total` live sessions, the caller's SESSIONS_OWN (real sign-ins) among them. */
async function sessionsInstance(total: number): Promise<SessionsInstance> {
  const svc = await benchService(`sessions-${total}`);
  const close = () => svc.close();
  try {
    const ctx = svc.ctx;
    const now = Date.now();
    const password = 'Bench#12345';
    const caller = await createUser(ctx, { username: 'sessions-bench', password });
    const fillers = Array.from({ length: SESSION_FILLER_USERS }, (_, k) =>
      newUserRow(now, { id: `sessions-fill-${k}`, username: `sessions-fill-${k}`, name: `Filler ${k}` }),
    );
    await ctx.db.insertInto('users').values(fillers).execute();
    const others = total - SESSIONS_OWN;
    for (let from = 0; from < others; from += 500) {
      const rows = Array.from({ length: Math.min(500, others - from) }, (_, k) => ({
        id_hash: crypto.randomBytes(32).toString('hex'),
        user_id: fillers[(from + k) % SESSION_FILLER_USERS].id,
        csrf_token: crypto.randomBytes(32).toString('base64url'),
        created_at: now - ((from + k) % 600) * 1000,
        last_seen_at: now,
        proved_at: now,
        handle: crypto.randomBytes(16).toString('hex'),
        user_agent: USER_AGENTS[(from + k) % USER_AGENTS.length],
        address: `10.${(from + k) >> 16}.${((from + k) >> 8) & 255}.${(from + k) & 255}`,
        method: 'password',
      }));
      await ctx.db.insertInto('sessions').values(rows).execute();
    }
    const base = await svc.listen();
    let last: { cookie: string; csrf: string } | undefined;
    for (let k = 0; k < SESSIONS_OWN; k++)
      last = await signIn(base, 'sessions-bench', password, USER_AGENTS[k % USER_AGENTS.length]);
    const rawId = last!.cookie.slice(last!.cookie.indexOf('=') + 1);
    return {
      total,
      ctx,
      base,
      callerId: caller.id,
      callerIdHash: crypto.createHash('sha256').update(rawId).digest('hex'),
      headers: { cookie: last!.cookie, 'x-requested-with': 'XMLHttpRequest', 'x-csrf-token': last!.csrf },
      close,
    };
  } catch (e) {
    await close();
    throw e;
  }
}

/**
 * The section: GET my sessions on both sizes in turn, several rounds (median by p99), then the service function alone
 * without HTTP. The target: the p99 at 100× within 1.3× of 1×.
 */
export async function sessionsBench(cannon: Cannon, duration: number, connections: number): Promise<void> {
  console.log(
    `\nSessions benchmark: ${duration}s per run, ${connections} connections, median of ${ROUNDS} runs by p99, sizes measured in turn`,
  );
  const sizes: SessionsInstance[] = [];
  try {
    for (const total of SESSION_TOTALS) sizes.push(await sessionsInstance(total));
    console.log(`database: ${sizes[0].ctx.dialect}`);
    const run = (i: SessionsInstance, c?: number) =>
      cannon(`GET my/sessions @ ${i.total.toLocaleString('en')} sessions`, `${i.base}${SECURITY_PATHS.sessions}`, {
        connections: c,
        headers: i.headers,
      });
    for (const i of sizes) await run(i, 2);
    const runs: SessionsBenchRun[][] = sizes.map(() => []);
    for (let round = 0; round < ROUNDS; round++) for (const [s, i] of sizes.entries()) runs[s].push(await run(i));
    const median = (rs: SessionsBenchRun[]) => [...rs].sort((a, b) => a.p99 - b.p99)[Math.floor((rs.length - 1) / 2)];
    const [few, many] = [median(runs[0]), median(runs[runs.length - 1])];

    const DIRECT_CALLS = 1000;
    const times: number[][] = sizes.map(() => []);
    for (const i of sizes) for (let k = 0; k < 50; k++) await listSessions(i.ctx, i.callerId, i.callerIdHash);
    for (let k = 0; k < DIRECT_CALLS; k++) {
      for (const [s, i] of sizes.entries()) {
        const t0 = performance.now();
        const list = await listSessions(i.ctx, i.callerId, i.callerIdHash);
        times[s].push(performance.now() - t0);
        if (list.sessions.length !== SESSIONS_OWN) throw new Error(`listed ${list.sessions.length} sessions`);
      }
    }
    const pct = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor(q * (xs.length - 1))];

    const pad = (s: string | number, n: number) => String(s).padEnd(n);
    console.log(
      `\n${pad('call @ sessions in the table', 40)}${pad('req/s', 10)}${pad('p50 ms', 9)}${pad('p99 ms', 9)}non-2xx/errors`,
    );
    for (const r of [few, many])
      console.log(
        `${pad(r.label, 40)}${pad(r.rps.toFixed(0), 10)}${pad(r.p50, 9)}${pad(r.p99, 9)}${r.non2xx}/${r.errors}`,
      );
    const ratio = many.p99 / Math.max(few.p99, 1);
    console.log(
      `\nsession list p99: ${few.p99} ms at ${SESSION_TOTALS[0].toLocaleString('en')} sessions, ${many.p99} ms at ` +
        `${SESSION_TOTALS[1].toLocaleString('en')} = ${ratio.toFixed(2)}× (target ≤ 1.3×): ${ratio <= 1.3 ? 'ok' : 'MISSED'}`,
    );
    console.log(
      `service function alone (${DIRECT_CALLS} calls, no HTTP): p50 ${pct(times[0], 0.5).toFixed(2)} / p99 ` +
        `${pct(times[0], 0.99).toFixed(2)} ms at ${SESSION_TOTALS[0].toLocaleString('en')}, p50 ${pct(times[1], 0.5).toFixed(2)} / ` +
        `p99 ${pct(times[1], 0.99).toFixed(2)} ms at ${SESSION_TOTALS[1].toLocaleString('en')}`,
    );
    if (runs.flat().some((r) => r.non2xx || r.errors))
      console.log('warning: some session-list answers were not 2xx; the figures are not trustworthy');
  } finally {
    for (const i of sizes) await i.close();
  }
}
