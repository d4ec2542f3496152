import { createOrg, createUser } from '../server/services/accounts';
import { benchService } from './lib/bench-service';
import type { AppContext } from '../server/context';
// The bench reads the plan of the service's own page query (captured on its way to the database, not rewritten here).
// eslint-disable-next-line @typescript-eslint/no-restricted-imports
import { CompiledQuery, createQueryId, sql, type RootOperationNode } from 'kysely';
import { HISTORY_KINDS, SECURITY_PATHS } from '../plugins/security/contract';
import {
  HISTORY_GROUP_OF,
  historyId,
  historyPage,
  type AccountHistoryTable,
} from '../plugins/security/server/history-service';

/** Entries of the two bench members: the page's p99 at the larger must stay within 1.3× of the smaller. */
const HISTORY_SIZES = [100, 10_000] as const;
/** Calls per size, sizes in turn (after 200 warm-up calls each). */
const CALLS = Number(process.env.BENCH_HISTORY_CALLS ?? 2000);
const DAY = 24 * 60 * 60 * 1000;

/** `count` entries of one member spread over the last 89 days, every kind in turn, as the receiver writes them. */
function entries(userId: string, count: number, now: number): AccountHistoryTable[] {
  const span = 89 * DAY;
  return Array.from({ length: count }, (_, i) => {
    const at = now - span + Math.floor((span * i) / count);
    const kind = HISTORY_KINDS[i % HISTORY_KINDS.length];
    return {
      id: historyId(at),
      user_id: userId,
      at,
      kind,
      kind_group: HISTORY_GROUP_OF[kind],
      detail: JSON.stringify(kind.startsWith('sign-in') ? { method: 'password' } : {}),
      address: `203.0.113.${i % 250}`,
      browser: JSON.stringify({ name: 'Chrome', version: '131', os: 'Windows' }),
    };
  });
}

/** The SQL `historyPage` runs, and its plan (SQLite `EXPLAIN QUERY PLAN`, PostgreSQL `EXPLAIN`). */
async function pagePlan(ctx: AppContext, userId: string): Promise<{ sql: string; plan: string }> {
  const nodes: RootOperationNode[] = [];
  const db = ctx.db.withPlugin({
    transformQuery: (args) => {
      nodes.push(args.node);
      return args.node;
    },
    transformResult: async (args) => args.result,
  });
  await historyPage({ db, clock: ctx.clock }, userId, {});
  const q = ctx.db.getExecutor().compileQuery(nodes[0], createQueryId());
  const explain = ctx.dialect === 'postgres' ? 'explain' : 'explain query plan';
  const r = await ctx.db.executeQuery<Record<string, string>>(
    CompiledQuery.raw(`${explain} ${q.sql}`, [...q.parameters]),
  );
  return {
    sql: q.sql.replace(/\s+/g, ' '),
    plan: r.rows.map((row) => row['QUERY PLAN'] ?? row.detail).join('\n  '),
  };
}

/** The q-quantile of `xs` (ms). */
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor(q * (xs.length - 1))];

/**
 * The history section: one service with two members holding 100 and 10,000 entries (the 100× data); their
 * first page (`GET my/history`, 50 entries) is called one at a time, the sizes in turn, so both meet the same
 * machine; p50 and p99 per call are printed with their ratio (target ≤ 1.3×), and the plan of the page's query.
 */
export async function historyBench(): Promise<void> {
  const svc = await benchService('history');
  try {
    const ctx = svc.ctx;
    const now = ctx.clock.now().getTime();
    const password = 'Bench#12345';
    await createOrg(ctx, 'History Bench');
    const users = [];
    for (const n of HISTORY_SIZES) {
      const u = await createUser(ctx, { username: `history-${n}`, password, org: 'History Bench' });
      const rows = entries(u.id, n, now);
      for (let i = 0; i < rows.length; i += 500)
        await ctx.db
          .insertInto('account_history')
          .values(rows.slice(i, i + 500))
          .execute();
      users.push(u);
    }
    // What autovacuum would have done by then (PostgreSQL plans a freshly filled table as an empty one without it).
    if (ctx.dialect === 'postgres') await sql`vacuum analyze account_history`.execute(ctx.db);
    const base = await svc.listen();
    const cookies: string[] = [];
    for (const n of HISTORY_SIZES) {
      const res = await fetch(`${base}/users/ajax/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
        body: JSON.stringify({ username: `history-${n}`, password }),
      });
      if (res.status !== 200) throw new Error(`history bench sign-in answered ${res.status}`);
      cookies.push(res.headers.getSetCookie()[0].split(';')[0]);
    }
    const call = async (i: number) => {
      const t0 = performance.now();
      const res = await fetch(`${base}${SECURITY_PATHS.history}`, { headers: { cookie: cookies[i] } });
      const body = (await res.json()) as { entries: unknown[] };
      const ms = performance.now() - t0;
      if (res.status !== 200 || body.entries.length !== 50) throw new Error(`history page answered ${res.status}`);
      return ms;
    };
    const times: number[][] = HISTORY_SIZES.map(() => []);
    for (let k = 0; k < 200; k++) for (const i of HISTORY_SIZES.keys()) await call(i);
    for (let k = 0; k < CALLS; k++) for (const i of HISTORY_SIZES.keys()) times[i].push(await call(i));

    console.log(`\nHistory benchmark: ${ctx.dialect}, ${CALLS} calls per size, one at a time, sizes in turn`);
    const plan = await pagePlan(ctx, users[users.length - 1].id);
    console.log(`first page query: ${plan.sql}\n  ${plan.plan}`);
    for (const [i, n] of HISTORY_SIZES.entries()) {
      console.log(
        `GET my/history first page @ ${n.toLocaleString('en')} entries: p50 ${quantile(times[i], 0.5).toFixed(2)} ms, ` +
          `p99 ${quantile(times[i], 0.99).toFixed(2)} ms`,
      );
    }
    const [few, many] = [quantile(times[0], 0.99), quantile(times[times.length - 1], 0.99)];
    const ratio = many / few;
    console.log(
      `history first page p99: ${few.toFixed(2)} ms at ${HISTORY_SIZES[0]} entries, ${many.toFixed(2)} ms at ` +
        `${HISTORY_SIZES[1].toLocaleString('en')} = ${ratio.toFixed(2)}× (target ≤ 1.3×): ${ratio <= 1.3 ? 'ok' : 'MISSED'}`,
    );
  } finally {
    await svc.close();
  }
}
