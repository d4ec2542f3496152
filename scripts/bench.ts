import Fastify from 'fastify';
import { DEFAULT_HASH_PARAMS } from '../server/auth/passwords';
import { createOrg, createUser, newUserRow, installApp } from '../server/services/accounts';
import { createOrganizationsBulk } from '../server/services/organizations';
import type { OrganizationsListAnswer } from '../plugins/switch-org/contract';
// The inbox section seeds a million rows with one INSERT … SELECT and reads the plans of the service's own queries:
// raw SQL is its purpose (the service's queries themselves are only captured, never rewritten here).
// eslint-disable-next-line @typescript-eslint/no-restricted-imports
import { CompiledQuery, createQueryId, sql, type RootOperationNode } from 'kysely';
import type { AppContext } from '../server/context';
import { countMessages, listMessages } from '../plugins/notifications/server/service';
import type { InboxPage } from '../plugins/notifications/contract';
import { sessionsBench } from './bench-sessions';
import { historyBench } from './bench-history';
import { tokensBench } from './bench-tokens';
import {
  benchService,
  cannon,
  BENCH_CONNECTIONS,
  BENCH_DURATION,
  type BenchRun,
  type BenchService,
} from './lib/bench-service';

type Run = BenchRun;
const DURATION = BENCH_DURATION;
const CONNECTIONS = BENCH_CONNECTIONS;

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

/** The general section: authenticated /me vs a bare Fastify route, sign-in latency with the real argon2id cost,
 * and the organisation list's p99 at 100 and 10,000 memberships (first and middle page). */
async function generalBench(): Promise<void> {
  // The real argon2id cost (sign-in is measured) and the scheduled passes running, as in production.
  const svc = await benchService('general', { hashParams: DEFAULT_HASH_PARAMS, scheduler: true });
  const app = svc.app;
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
    const base = await svc.listen();
    await bare.listen({ port: 0, host: '127.0.0.1' });
    const bareUrl = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}/bare`;
    const loginBody = JSON.stringify({ username: 'bench', password });
    const loginHeaders = { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' };
    const res = await fetch(`${base}/users/ajax/login`, { method: 'POST', headers: loginHeaders, body: loginBody });
    if (res.status !== 200) throw new Error(`bench sign-in failed: ${res.status}`);
    const cookie = res.headers.getSetCookie()[0].split(';')[0];

    console.log(
      `Benchmark: ${DURATION}s per run, ${CONNECTIONS} connections, ${app.ctx.dialect}, argon2id m=${DEFAULT_HASH_PARAMS.memoryCost} t=${DEFAULT_HASH_PARAMS.timeCost} p=${DEFAULT_HASH_PARAMS.parallelism}`,
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
    await svc.close();
    await bare.close();
  }
}

// ── The message center: list and unread counts at 10,000 and 1,000,000 messages in the table ──

/** Messages of the inbox bench's caller, spread over the three applications, half of them unread. */
const INBOX_OWN = 10_000;
/** Rows in `inbox_messages` at each measurement (the caller's included): p99 at the largest within 1.3× of the first. */
const INBOX_TOTALS = [INBOX_OWN, Number(process.env.BENCH_INBOX_TOTAL ?? 1_000_000)] as const;
/** Other users owning the rest of the rows. */
const INBOX_FILLER_USERS = 500;
/** Where the deep page of the list starts (messages in from the newest). */
const INBOX_DEEP = 5_000;
const INBOX = '/users/ajax/v1/notifications/inbox/messages';
/** Runs of each inbox call per size (its median by p99 is reported). */
const INBOX_ROUNDS = Math.max(1, Number(process.env.BENCH_INBOX_ROUNDS ?? 3));

/** One measured inbox call: what it sends. */
interface InboxCall {
  label: string;
  path: string;
  body: string;
}

/**
 * Inserts rows `[from, to)` of the synthetic inbox in one INSERT … SELECT (a recursive CTE on SQLite,
 * `generate_series` on PostgreSQL), so a million rows seed in seconds. Rows below INBOX_OWN belong to the caller
 * (3 per second of created_at, apps in turn, every other triple read, packages ones sensitive); the others go
 * round the filler users over the last 90 days.
 */
async function seedInboxRows(ctx: AppContext, callerId: string, from: number, to: number, now: number): Promise<void> {
  if (to <= from) return;
  // Integers everywhere (a bound JS number is a REAL to SQLite, and n / 3 must divide as integers).
  const int = (v: number) => sql`cast(${v} as bigint)`;
  // Fillers get consecutive runs of rows (user by user, newest first), so the indexes fill in order: the seed is
  // fast and the table is the same as if the messages had arrived over time.
  const perUser = int(Math.max(1, Math.ceil((to - Math.max(from, INBOX_OWN)) / INBOX_FILLER_USERS)));
  const k = sql`(n - ${int(INBOX_OWN)})`;
  const owner = sql`case when n < ${int(INBOX_OWN)} then ${callerId} else 'inbox-fill-' || (${k} / ${perUser}) end`;
  const createdAt = sql`case when n < ${int(INBOX_OWN)} then ${int(now)} - (n / 3) * 1000 else ${int(now)} - (${k} % ${perUser}) * 5000 end`;
  const columns = sql`
      ${owner},
      case n % 3 when 0 then 'account' when 1 then 'packages' else 'organization' end,
      case n % 3 when 0 then 'avatar.changed' when 1 then 'packages.password-reset' else 'org.notice' end,
      case n % 3 when 2 then '{"org":"Bench","title":"Planned maintenance","body":"Read-only on Saturday."}' else '{}' end,
      case n % 3 when 1 then 1 else 0 end,
      case when (n / 3) % 2 = 0 then null else ${createdAt} + 500 end,
      ${createdAt},
      null`;
  const insert = sql`insert into inbox_messages (id, user_id, app, type, params, sensitive, read_at, created_at, event_key)`;
  if (ctx.dialect === 'postgres') {
    await sql`${insert} select lpad(to_hex(n), 24, '0'), ${columns} from generate_series(${int(from)}, ${int(to - 1)}) as n`.execute(
      ctx.db,
    );
  } else {
    await sql`with recursive seq(n) as (select ${int(from)} union all select n + 1 from seq where n + 1 < ${int(to)})
      ${insert} select printf('%024x', n), ${columns} from seq`.execute(ctx.db);
  }
}

/**
 * What a live database looks like soon after a bulk change. PostgreSQL: what autovacuum does, statistics and the
 * visibility map index-only scans need (without them the planner takes a freshly filled table for an empty one).
 * SQLite: the WAL folded back into the file, as the service's small transactions keep it (no ANALYZE: the service
 * never runs it).
 */
async function settle(ctx: AppContext): Promise<void> {
  if (ctx.dialect === 'postgres') await sql`vacuum analyze inbox_messages`.execute(ctx.db);
  else await sql`pragma wal_checkpoint(truncate)`.execute(ctx.db);
}

/** The SQL the service itself runs for `run` (captured on its way to the database, not rewritten here). */
async function serviceQueries(ctx: AppContext, run: (ctx: AppContext) => Promise<unknown>): Promise<CompiledQuery[]> {
  const nodes: RootOperationNode[] = [];
  const db = ctx.db.withPlugin({
    transformQuery: (args) => {
      nodes.push(args.node);
      return args.node;
    },
    transformResult: async (args) => args.result,
  });
  await run({ ...ctx, db });
  return nodes.map((n) => ctx.db.getExecutor().compileQuery(n, createQueryId()));
}

/**
 * Prints the plan of a query and says whether it reads an inbox index without a full scan or a sort of its own
 * (SQLite `EXPLAIN QUERY PLAN`, PostgreSQL `EXPLAIN (ANALYZE, BUFFERS)`); false when it does not.
 */
async function explainInbox(ctx: AppContext, label: string, q: CompiledQuery, needOrder: boolean): Promise<boolean> {
  const lines: string[] = [];
  if (ctx.dialect === 'postgres') {
    const r = await ctx.db.executeQuery<Record<string, string>>(
      CompiledQuery.raw(`explain (analyze, buffers) ${q.sql}`, [...q.parameters]),
    );
    lines.push(...r.rows.map((row) => row['QUERY PLAN']));
  } else {
    const r = await ctx.db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${q.sql}`, [...q.parameters]),
    );
    lines.push(...r.rows.map((row) => row.detail));
  }
  const plan = lines.join('\n');
  const index =
    /(USING (COVERING )?INDEX|Index (Only )?Scan( Backward)? using|Bitmap Index Scan on) inbox_messages_/.test(plan);
  const fullScan = /Seq Scan|^SCAN inbox_messages$/m.test(plan);
  const sorts = needOrder && /TEMP B-TREE|Sort/.test(plan);
  const covering = /USING COVERING INDEX|Index Only Scan/.test(plan);
  const ok = index && !fullScan && !sorts;
  console.log(`\n${label}\n  ${q.sql.replace(/\s+/g, ' ')}\n  ${lines.join('\n  ')}`);
  console.log(
    `  → ${ok ? 'ok' : 'MISSED'}: ${index ? `an inbox index${covering ? ' alone (covering)' : ''}` : 'NO inbox index'}, ${fullScan ? 'a FULL SCAN' : 'no full scan'}${needOrder ? `, ${sorts ? 'a SORT of its own' : 'order from the index'}` : ''}`,
  );
  return ok;
}

/** The `next_token` of the page starting `skip` messages in, reached through the list itself. */
async function inboxToken(base: string, user: BenchSession, skip: number): Promise<string> {
  let token: string | undefined;
  for (let left = skip; left > 0; left -= 100) {
    const res: Response = await fetch(`${base}${INBOX}:list`, {
      method: 'POST',
      headers: user.headers,
      body: JSON.stringify({ page_size: Math.min(100, left), ...(token ? { next_token: token } : {}) }),
    });
    if (res.status !== 200) throw new Error(`inbox list answered ${res.status}`);
    const next = ((await res.json()) as InboxPage).pages.next_token;
    if (!next) throw new Error('the inbox ended before the deep page');
    token = next;
  }
  return token!;
}

/** One service instance of the inbox bench: its own database holding `total` inbox rows, and the signed-in caller. */
interface InboxInstance {
  total: number;
  ctx: AppContext;
  base: string;
  callerId: string;
  user: BenchSession;
  /** The list's `next_token` INBOX_DEEP messages in. */
  deep: string;
  close(): Promise<void>;
}

/**
 * Starts a service on its own database (a temp SQLite file, or its own schema of BENCH_DATABASE_URL) and fills
 * `inbox_messages` to `total` rows: the caller's INBOX_OWN first, then the filler users' rows.
 */
async function inboxInstance(total: number, now: number): Promise<InboxInstance> {
  // Cheap hashing: the inbox bench signs one user in and measures no sign-in; no scheduled passes in the way.
  const svc: BenchService = await benchService(`inbox-${total}`);
  const close = () => svc.close();
  try {
    const ctx = svc.ctx;
    const password = 'Bench#12345';
    await createOrg(ctx, 'Inbox Bench');
    const caller = await createUser(ctx, { username: 'inbox-bench', password, org: 'Inbox Bench' });
    await ctx.db
      .insertInto('users')
      .values(
        Array.from({ length: INBOX_FILLER_USERS }, (_, k) =>
          newUserRow(now, { id: `inbox-fill-${k}`, username: `inbox-fill-${k}`, name: `Filler ${k}` }),
        ),
      )
      .execute();
    const t = performance.now();
    // A larger page cache while seeding only (SQLite's small default would make the seed, not the calls, slow).
    const cache =
      ctx.dialect === 'sqlite'
        ? (await sql<{ cache_size: number }>`pragma cache_size`.execute(ctx.db)).rows[0].cache_size
        : 0;
    if (ctx.dialect === 'sqlite') await sql`pragma cache_size = -262144`.execute(ctx.db);
    await seedInboxRows(ctx, caller.id, 0, Math.min(total, INBOX_OWN), now);
    await seedInboxRows(ctx, caller.id, INBOX_OWN, total, now);
    if (ctx.dialect === 'sqlite') await sql.raw(`pragma cache_size = ${Number(cache)}`).execute(ctx.db);
    await settle(ctx);
    const count = await ctx.db
      .selectFrom('inbox_messages')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .executeTakeFirstOrThrow();
    console.log(
      `inbox_messages seeded with ${Number(count.n).toLocaleString('en')} rows (the caller's ${INBOX_OWN.toLocaleString('en')}` +
        `${total > INBOX_OWN ? `, ${INBOX_FILLER_USERS} other users' the rest` : ''}) in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );
    const base = await svc.listen();
    const user = await signIn(base, 'inbox-bench', password);
    return { total, ctx, base, callerId: caller.id, user, deep: await inboxToken(base, user, INBOX_DEEP), close };
  } catch (e) {
    await close();
    throw e;
  }
}

/**
 * The inbox section: two instances side by side, one with 10,000 rows in `inbox_messages` (all the caller's), one
 * with 1,000,000 (the same 10,000 of the caller's, the rest other users'). Each call (the list's first page, a page
 * 5,000 in, the unread tab of one application, the unread counts) runs on both in turn, several rounds, so a burst
 * of other load on the machine hits both sizes alike; then the plans of the service's own queries are printed and
 * checked (an inbox index, no full scan, no sort for the ORDER BY).
 */
async function inboxBench(): Promise<void> {
  const now = Date.now();
  console.log(
    `\nInbox benchmark: ${DURATION}s per run, ${CONNECTIONS} connections, median of ${INBOX_ROUNDS} runs by p99, sizes measured in turn`,
  );
  const sizes: InboxInstance[] = [];
  let planOk = true;
  try {
    for (const total of INBOX_TOTALS) sizes.push(await inboxInstance(total, now));
    console.log(`database: ${sizes[0].ctx.dialect}`);
    const calls = (i: InboxInstance): InboxCall[] => [
      { label: 'list, first page', path: `${INBOX}:list`, body: JSON.stringify({}) },
      { label: `list, page ${INBOX_DEEP} in`, path: `${INBOX}:list`, body: JSON.stringify({ next_token: i.deep }) },
      {
        label: 'list, unread tab of packages',
        path: `${INBOX}:list`,
        body: JSON.stringify({ tab: 'unread', app: 'packages' }),
      },
      { label: 'unread:countGroupByApp', path: `${INBOX}/unread:countGroupByApp`, body: '{}' },
    ];
    const run = (i: InboxInstance, call: InboxCall, connections?: number) =>
      cannon(`${call.label} @ ${i.total.toLocaleString('en')}`, `${i.base}${call.path}`, {
        connections,
        method: 'POST',
        headers: i.user.headers,
        body: call.body,
      });
    // The first measured run must not pay for the route's warm-up (JIT, statement cache) alone.
    for (const i of sizes) for (const call of calls(i)) await run(i, call, 2);
    // runs[size][call] → one run per round; each call reports its median run by p99.
    const runs: Run[][][] = sizes.map(() => calls(sizes[0]).map(() => []));
    for (let round = 0; round < INBOX_ROUNDS; round++) {
      for (let c = 0; c < calls(sizes[0]).length; c++) {
        for (const [s, i] of sizes.entries()) runs[s][c].push(await run(i, calls(i)[c]));
      }
    }
    const median = (rs: Run[]) => [...rs].sort((a, b) => a.p99 - b.p99)[Math.floor((rs.length - 1) / 2)];
    const results = runs.map((perCall) => perCall.map(median));

    // The service's own work without HTTP: each call's service function run one at a time, sizes in turn, so the
    // database's share can be told from the machine's noise in the p99s above.
    const direct: Array<[string, (i: InboxInstance) => Promise<unknown>]> = [
      ['list, first page', (i) => listMessages(i.ctx, i.callerId, 'en_US', {})],
      [`list, page ${INBOX_DEEP} in`, (i) => listMessages(i.ctx, i.callerId, 'en_US', { nextToken: i.deep })],
      [
        'list, unread tab of packages',
        (i) => listMessages(i.ctx, i.callerId, 'en_US', { tab: 'unread', app: 'packages' }),
      ],
      ['unread:countGroupByApp', (i) => countMessages(i.ctx, i.callerId)],
    ];
    const DIRECT_CALLS = 1000;
    const serviceTimes: number[][][] = sizes.map(() => direct.map(() => []));
    for (const [c, [, call]] of direct.entries()) {
      for (const i of sizes) for (let k = 0; k < 50; k++) await call(i);
      for (let k = 0; k < DIRECT_CALLS; k++) {
        for (const [s, i] of sizes.entries()) {
          const t0 = performance.now();
          await call(i);
          serviceTimes[s][c].push(performance.now() - t0);
        }
      }
    }
    const pct = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor(q * (xs.length - 1))];

    for (const [s, i] of sizes.entries()) {
      const decide = s === sizes.length - 1;
      const list = (input: Parameters<typeof listMessages>[3]) =>
        serviceQueries(i.ctx, (c) => listMessages(c, i.callerId, 'en_US', input));
      const cases: Array<[string, () => Promise<CompiledQuery[]>, boolean]> = [
        ['list, first page', () => list({}), true],
        [`list, page ${INBOX_DEEP} in`, () => list({ nextToken: i.deep }), true],
        ['list, packages', () => list({ app: 'packages' }), true],
        ['list, unread tab', () => list({ tab: 'unread' }), true],
        ['list, unread tab of packages', () => list({ tab: 'unread', app: 'packages' }), true],
        ['unread:countGroupByApp', () => serviceQueries(i.ctx, (c) => countMessages(c, i.callerId)), false],
      ];
      console.log(
        `\nQuery plans at ${i.total.toLocaleString('en')} rows${decide ? '' : ' (for information: every row is the caller’s, so PostgreSQL may rightly prefer the created_at index or a scan)'}:`,
      );
      for (const [label, queries, ordered] of cases) {
        for (const q of await queries()) {
          const ok = await explainInbox(i.ctx, label, q, ordered);
          if (decide) planOk = ok && planOk;
        }
      }
    }

    const pad = (s: string | number, n: number) => String(s).padEnd(n);
    console.log(
      `\n${pad('inbox call @ rows in the table', 48)}${pad('req/s', 10)}${pad('p50 ms', 9)}${pad('p99 ms', 9)}non-2xx/errors`,
    );
    for (const r of results.flat())
      console.log(
        `${pad(r.label, 48)}${pad(r.rps.toFixed(0), 10)}${pad(r.p50, 9)}${pad(r.p99, 9)}${r.non2xx}/${r.errors}`,
      );
    console.log('');
    calls(sizes[0]).forEach((call, c) => {
      const [few, many] = [results[0][c], results[results.length - 1][c]];
      const ratio = many.p99 / Math.max(few.p99, 1);
      console.log(
        `${call.label} p99: ${few.p99} ms at ${sizes[0].total.toLocaleString('en')} rows, ${many.p99} ms at ` +
          `${sizes[sizes.length - 1].total.toLocaleString('en')} = ${ratio.toFixed(2)}× (target ≤ 1.3×): ${ratio <= 1.3 ? 'ok' : 'MISSED'}`,
      );
    });
    console.log(`\nService functions alone (${DIRECT_CALLS} calls each, one at a time, no HTTP):`);
    for (const [c, [label]] of direct.entries()) {
      const [few, many] = [serviceTimes[0][c], serviceTimes[serviceTimes.length - 1][c]];
      console.log(
        `${label}: p50 ${pct(few, 0.5).toFixed(2)} / p99 ${pct(few, 0.99).toFixed(2)} ms at ${sizes[0].total.toLocaleString('en')} rows, ` +
          `p50 ${pct(many, 0.5).toFixed(2)} / p99 ${pct(many, 0.99).toFixed(2)} ms at ${sizes[sizes.length - 1].total.toLocaleString('en')} ` +
          `(p50 ${(pct(many, 0.5) / pct(few, 0.5)).toFixed(2)}×)`,
      );
    }
    console.log(
      `inbox query plans at ${INBOX_TOTALS[1].toLocaleString('en')} rows: ${planOk ? 'ok — every list reads an inbox index in order, no full scan, no sort' : 'MISSED (see above)'}`,
    );
    if (runs.flat(2).some((r) => r.non2xx || r.errors))
      console.log('warning: some inbox answers were not 2xx; the figures are not trustworthy');
    if (!planOk) process.exitCode = 1;
  } finally {
    for (const i of sizes) await i.close();
  }
}

/**
 * `npm run bench`: every section; `BENCH_ONLY=general`, `inbox`, `sessions`, `history` or `tokens` runs one alone. On PostgreSQL
 * with `BENCH_DATABASE_URL` (e.g. `bash scripts/with-postgres.sh bash -c 'BENCH_DATABASE_URL=$DATABASE_URL npm run bench'`).
 */
async function main(): Promise<void> {
  const only = process.env.BENCH_ONLY;
  if (only && !['general', 'inbox', 'sessions', 'history', 'tokens'].includes(only))
    throw new Error(`BENCH_ONLY must be general, inbox, sessions, history or tokens, not ${only}`);
  if (!only || only === 'general') await generalBench();
  if (!only || only === 'inbox') await inboxBench();
  if (!only || only === 'sessions') await sessionsBench(cannon, DURATION, CONNECTIONS);
  if (!only || only === 'history') await historyBench();
  if (!only || only === 'tokens') await tokensBench(cannon, DURATION, CONNECTIONS);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
