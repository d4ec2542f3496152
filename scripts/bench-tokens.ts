// The token section of `npm run bench` (BENCH_ONLY=tokens): the open API authenticated by a personal access token
// (digest lookup, expiry, scope, tenant, and the use recorded), next to the same service's session-authenticated
// `me` as the machine's yardstick. Issue 42's target: with every use recorded, token authentication stays within
// 1.2× of what it was before recording (req/s and p99).
import { createUser } from '../server/services/accounts';
import { issueToken } from '../plugins/access-tokens/server/tokens';
import { SCOPE_USER_READ } from '../server/routes/oapi';
import { benchService, type BenchRun, type Cannon } from './lib/bench-service';

const ROUNDS = Math.max(1, Number(process.env.BENCH_TOKENS_ROUNDS ?? 3));

/** The run of `rs` with the median p99. */
const median = (rs: BenchRun[]) => [...rs].sort((a, b) => a.p99 - b.p99)[Math.floor((rs.length - 1) / 2)];

/** Runs the section: token-authenticated GET /oapi/v1/platform/user and session GET /individual/proxy/me in turn. */
export async function tokensBench(cannon: Cannon, duration: number, connections: number): Promise<void> {
  const svc = await benchService('tokens');
  try {
    const ctx = svc.ctx;
    const password = 'Bench#12345';
    const user = await createUser(ctx, { username: 'tokens-bench', password });
    const { token } = await issueToken(ctx.db, ctx.clock, {
      userId: user.id,
      name: 'bench',
      scopes: [SCOPE_USER_READ],
      expiresAt: null,
    });
    const base = await svc.listen();
    const res = await fetch(`${base}/users/ajax/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
      body: JSON.stringify({ username: 'tokens-bench', password }),
    });
    if (res.status !== 200) throw new Error(`tokens bench sign-in answered ${res.status}`);
    const cookie = res.headers.getSetCookie()[0].split(';')[0];
    const headers = { 'x-yunxiao-token': token, 'user-agent': 'bench-ci/1.0' };
    const tokenRun = (c?: number) =>
      cannon('GET /oapi/v1/platform/user (token)', `${base}/oapi/v1/platform/user`, { connections: c, headers });
    const meRun = (c?: number) =>
      cannon('GET /individual/proxy/me (session)', `${base}/individual/proxy/me`, {
        connections: c,
        headers: { cookie },
      });
    console.log(
      `\nToken benchmark: ${ctx.dialect}, ${duration}s per run, ${connections} connections, median of ${ROUNDS} runs by p99, in turn with the session's me`,
    );
    await tokenRun(2);
    await meRun(2);
    const runs: BenchRun[][] = [[], []];
    for (let round = 0; round < ROUNDS; round++) {
      runs[0].push(await tokenRun());
      runs[1].push(await meRun());
    }
    const [tok, me] = runs.map(median);
    const pad = (s: string | number, n: number) => String(s).padEnd(n);
    console.log(`\n${pad('route', 40)}${pad('req/s', 10)}${pad('p50 ms', 9)}${pad('p99 ms', 9)}non-2xx/errors`);
    for (const r of [tok, me])
      console.log(
        `${pad(r.label, 40)}${pad(r.rps.toFixed(0), 10)}${pad(r.p50, 9)}${pad(r.p99, 9)}${r.non2xx}/${r.errors}`,
      );
    const uses = await ctx.db
      .selectFrom('credential_uses')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .executeTakeFirst()
      .catch(() => undefined);
    console.log(
      `token authentication: ${tok.rps.toFixed(0)} req/s, p99 ${tok.p99} ms (${((tok.rps / me.rps) * 100).toFixed(0)}% of the session's me)` +
        `${uses ? `; ${Number(uses.n)} use row(s) recorded` : '; no use recorded (no credential_uses table)'}`,
    );
    if (runs.flat().some((r) => r.non2xx || r.errors))
      console.log('warning: some token-bench answers were not 2xx; the figures are not trustworthy');
  } finally {
    await svc.close();
  }
}
