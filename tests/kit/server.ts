// The server test kit: a real `buildApp` on a temp database, seeded declaratively, and a browser-like client.
// HTTP tests (tests/http), the admin CLI test and the e2e service (tests/e2e/serve.ts) start from here.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp, type BuildAppOptions } from '../../server/app';
import { ManualClock } from '../../server/clock';
import { loadConfig } from '../../server/config';
import { dropPgSchema } from '../../server/db/index';
import type { AppContext } from '../../server/context';
import type { HashParams } from '../../server/auth/passwords';
import {
  createUser,
  createOrg,
  findUserByUsername,
  installApp,
  type CreateUserInput,
} from '../../server/services/accounts';
import {
  addMember,
  createOrganizationsBulk,
  parseExpiryDate,
  updateOrgPolicies,
  type OrgRole,
} from '../../server/services/organizations';

/** Cheap argon2id parameters for tests that are not about the parameters themselves. */
export const TEST_HASH_PARAMS: HashParams = { memoryCost: 64, timeCost: 1, parallelism: 1 };

/** The web bundle stand-in the service serves in tests (an index.html template, a hashed script, robots.txt). */
const WEB_DIST = path.join(import.meta.dirname, '../fixtures/server/web-dist');

/** A fresh directory under the system temp folder, for a service's DATA_DIR (the caller removes it). */
export function tempDataDir(prefix = 'account-http-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** An instant for a seeded policy: epoch ms, a Date, or `YYYY-MM-DD` (the last valid day, UTC, as the CLI reads it). */
export type SeedInstant = number | Date | string;

/** One organisation of a seed with more than apps: its members, admins and policies. */
export interface OrgSeed {
  /** App keys installed, in order. */
  apps?: string[];
  /** Seeded usernames joining as members (besides users whose `org` is this one). */
  members?: string[];
  /** Seeded usernames joining as organisation admins (or promoted when already members). */
  admins?: string[];
  /** CIDRs requests in this organisation must come from (as the CLI takes them); absent = anywhere. */
  ipWhitelist?: string[];
  /** When the licence stops working. */
  licenceExpiresAt?: SeedInstant;
  /** When the standard-edition order stops working. */
  orderExpiresAt?: SeedInstant;
}

/** Many organisations made in batched INSERTs (organisation lists of 120 or 10,000 memberships). */
export interface ManyOrgsSeed {
  /** Names are `<prefix> <n>`, n zero-padded from 1 so they sort in creation order. */
  prefix: string;
  count: number;
  /** Seeded usernames made members of every one of them. */
  members: string[];
  role?: OrgRole;
  apps?: string[];
}

/** Accounts to create, as data: what a test starts from. */
export interface Seed {
  /** Organisations by name: the keys of the apps installed in it, in order, or an `OrgSeed`. */
  orgs?: Record<string, string[] | OrgSeed>;
  /** Users by username, in order; `org` names the organisation they join (it becomes their current one). */
  users?: Record<string, Omit<CreateUserInput, 'username'>>;
  /** Organisations made in bulk after the users (their ids land in `orgs` by name too). */
  manyOrgs?: ManyOrgsSeed[];
  /** Seeded users to sign in (each with its own client, keeping its session cookie and CSRF token). */
  signIn?: string[];
}

/** A user row as the account service created it. */
export type SeededUser = Awaited<ReturnType<typeof createUser>>;

/**
 * The common seed: one organisation with codeup and packages installed, whose members share one password
 * (`Secret#123` unless told) and, with `signIn`, are signed in.
 */
export function orgSeed(
  org: string,
  usernames: string[],
  { password = 'Secret#123', signIn = false }: { password?: string; signIn?: boolean } = {},
): Seed {
  return {
    orgs: { [org]: ['codeup', 'packages'] },
    users: Object.fromEntries(usernames.map((u) => [u, { password, org }])),
    signIn: signIn ? usernames : [],
  };
}

/** What a seed created: organisation ids and user rows by name, clients by username. */
export interface Seeded {
  orgs: Record<string, string>;
  users: Record<string, SeededUser>;
  clients: Record<string, Client>;
}

const instant = (at: SeedInstant | undefined): number | null | undefined =>
  at === undefined
    ? undefined
    : typeof at === 'string'
      ? parseExpiryDate(at)
      : typeof at === 'number'
        ? at
        : at.getTime();

/**
 * Creates the seed's organisations (apps, policies) and users, then memberships and bulk organisations, through the
 * services the admin CLI uses. Users named by `members`/`admins`/`manyOrgs` may come from an earlier seed call.
 */
export async function seedAccounts(ctx: AppContext, seed: Omit<Seed, 'signIn'>): Promise<Omit<Seeded, 'clients'>> {
  const orgs: Record<string, string> = {};
  const users: Record<string, SeededUser> = {};
  const specs = Object.entries(seed.orgs ?? {}).map(
    ([name, spec]) => [name, Array.isArray(spec) ? { apps: spec } : spec] as const,
  );
  for (const [name, spec] of specs) {
    orgs[name] = (await createOrg(ctx, name)).id;
    for (const app of spec.apps ?? []) await installApp(ctx, name, app);
    await updateOrgPolicies(ctx.db, orgs[name], {
      ipWhitelist: spec.ipWhitelist,
      licenceExpiresAt: instant(spec.licenceExpiresAt),
      orderExpiresAt: instant(spec.orderExpiresAt),
    });
  }
  for (const [username, input] of Object.entries(seed.users ?? {})) {
    users[username] = await createUser(ctx, { username, ...input });
  }
  for (const [name, spec] of specs) {
    for (const u of spec.members ?? []) await addMember(ctx, name, u);
    for (const u of spec.admins ?? []) await addMember(ctx, name, u, 'admin');
  }
  for (const many of seed.manyOrgs ?? []) {
    const width = String(many.count).length;
    const names = Array.from({ length: many.count }, (_, i) => `${many.prefix} ${String(i + 1).padStart(width, '0')}`);
    const memberIds: string[] = [];
    for (const u of many.members) {
      const row = users[u] ?? (await findUserByUsername(ctx.db, u));
      if (!row) throw new Error(`manyOrgs: user ${u} was not seeded`);
      memberIds.push(row.id);
    }
    const ids = await createOrganizationsBulk(ctx, { names, memberIds, role: many.role, apps: many.apps });
    names.forEach((n, i) => (orgs[n] = ids[i]));
  }
  return { orgs, users };
}

/** A running service on a temp database, its clock, captured log lines and what was seeded. */
export interface TestServer extends Seeded {
  app: FastifyInstance;
  ctx: AppContext;
  url: string;
  clock: ManualClock;
  logs: string[];
  dataDir: string;
  /** Seeds more accounts (and signs them in) on the running service; the results are merged into this server's. */
  seed(seed: Seed): Promise<Seeded>;
  /** Signs seeded users in afresh (new clients, new sessions; default: the seed's `signIn` list) into `clients`. */
  signIn(...usernames: string[]): Promise<Record<string, Client>>;
  close(): Promise<void>;
}

/** Options of `startTestServer`: the seed, environment variables for `loadConfig`, and `buildApp` overrides. */
export type TestServerOptions = Partial<BuildAppOptions> & { seed?: Seed; env?: NodeJS.ProcessEnv };

/**
 * Starts `buildApp` on port 0 with a temp SQLite file (or its own PostgreSQL schema when DATABASE_URL is set),
 * then applies `seed`. A seeded user's sign-in that does not answer 200 fails the start.
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = tempDataDir();
  const { env, seed, ...rest } = options;
  const config = loadConfig({
    DATA_DIR: dataDir,
    DIST_DIR: WEB_DIST,
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    ...env,
  });
  const pgSchema = config.databaseUrl ? `t_${crypto.randomBytes(6).toString('hex')}` : undefined;
  const clock = (rest.clock as ManualClock | undefined) ?? new ManualClock();
  const logs: string[] = [];
  const cleanUp = async () => {
    if (pgSchema && config.databaseUrl) await dropPgSchema(config.databaseUrl, pgSchema).catch(() => {});
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  let app: FastifyInstance;
  try {
    app = await buildApp({
      ...config,
      pgSchema,
      hashParams: TEST_HASH_PARAMS,
      logger: { level: 'debug', stream: { write: (line: string) => void logs.push(line) } },
      ...rest,
      clock,
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
  } catch (e) {
    await cleanUp();
    throw e;
  }
  const addr = app.server.address() as { port: number };
  const url = `http://127.0.0.1:${addr.port}`;
  const passwords = new Map<string, string>();
  let signInList: string[] = [];
  const server: TestServer = {
    app,
    ctx: app.ctx,
    url,
    clock,
    logs,
    dataDir,
    orgs: {},
    users: {},
    clients: {},
    async seed(more) {
      const made = await seedAccounts(app.ctx, more);
      for (const [name, input] of Object.entries(more.users ?? {}))
        if (input.password !== undefined) passwords.set(name, input.password);
      Object.assign(server.orgs, made.orgs);
      Object.assign(server.users, made.users);
      const clients = more.signIn?.length ? await server.signIn(...more.signIn) : {};
      return { ...made, clients };
    },
    async signIn(...usernames) {
      const clients: Record<string, Client> = {};
      for (const name of usernames.length ? usernames : signInList) {
        const password = passwords.get(name);
        if (password === undefined) throw new Error(`${name} was not seeded with a password`);
        const c = new Client(url);
        const a = await c.login(name, password);
        if (a.status !== 200) throw new Error(`sign-in of ${name} answered ${a.status}: ${a.text}`);
        clients[name] = c;
      }
      Object.assign(server.clients, clients);
      return clients;
    },
    async close() {
      await app.close();
      if (pgSchema && config.databaseUrl) await dropPgSchema(config.databaseUrl, pgSchema);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  if (seed) {
    signInList = seed.signIn ?? [];
    try {
      await server.seed(seed);
    } catch (e) {
      await server.close();
      throw e;
    }
  }
  return server;
}

/**
 * The test server of the enclosing `describe`: started (and seeded) in `beforeAll`, closed in `afterAll`.
 * The handle forwards to the running server, so it is usable inside hooks and tests only. `options` may be a
 * function, called in that `beforeAll`, when they depend on an earlier hook (e.g. an SMTP sink's URL).
 */
export function useTestServer(
  options: TestServerOptions | (() => TestServerOptions | Promise<TestServerOptions>) = {},
): TestServer {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer(typeof options === 'function' ? await options() : options);
  });
  afterAll(async () => {
    await server?.close();
  });
  return new Proxy({} as TestServer, {
    get(_target, key) {
      if (!server) throw new Error('the test server starts in beforeAll: use it inside hooks and tests');
      const value = Reflect.get(server, key);
      return typeof value === 'function' ? value.bind(server) : value;
    },
  });
}

/** One HTTP answer, body parsed when JSON. */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON fields
  json: any;
}

/** A browser-like client: keeps cookies, sends X-Requested-With and the CSRF token unless told not to. */
export class Client {
  cookies = new Map<string, string>();
  csrf: string | undefined;

  /** `headers` go with every request of this client (e.g. `x-forwarded-for` to act from its own address). */
  constructor(
    public readonly base: string,
    public readonly headers: Record<string, string> = {},
  ) {}

  /** The Cookie header this client would send. */
  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  /** Sends a request; `xhr: false` / `csrf: false` drop the protective headers. */
  async req(
    method: string,
    p: string,
    opts: {
      body?: unknown;
      raw?: string;
      headers?: Record<string, string>;
      xhr?: boolean;
      csrf?: boolean;
      redirect?: 'manual';
    } = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = { ...this.headers, ...opts.headers };
    if (opts.xhr !== false) headers['x-requested-with'] ??= 'XMLHttpRequest';
    if (opts.csrf !== false && this.csrf) headers['x-csrf-token'] ??= this.csrf;
    if (this.cookies.size) headers.cookie ??= this.cookieHeader();
    let body: string | undefined = opts.raw;
    if (opts.body !== undefined) body = JSON.stringify(opts.body);
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    const res = await fetch(this.base + p, { method, headers, body, redirect: opts.redirect ?? 'manual' });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      const name = pair.slice(0, i);
      const value = pair.slice(i + 1);
      if (!value || /expires=Thu, 01 Jan 1970/i.test(c) || /max-age=0/i.test(c)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    let json: Answer['json'];
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json };
  }

  /** Signs in and keeps the session cookie and CSRF token. */
  async login(username: string, password: string): Promise<Answer> {
    const a = await this.req('POST', '/users/ajax/login', { body: { username, password } });
    if (a.status === 200) this.csrf = a.json.csrf_token;
    return a;
  }
}

/** Removes the per-request part of an error body so answers can be compared. */
export function withoutRequestId(body: Record<string, unknown>): Record<string, unknown> {
  const { requestId: _r, ...rest } = body;
  return rest;
}

// ── Message center (inbox) helpers: a second instance on one database, and the admin CLI on a running server ──

/** The path prefix of the inbox calls. */
export const INBOX = '/users/ajax/v1/notifications/inbox/messages';

/** The PostgreSQL schema a running test server uses; undefined on SQLite. */
export async function pgSchemaOf(server: Pick<TestServer, 'ctx'>): Promise<string | undefined> {
  if (!process.env.DATABASE_URL) return undefined;
  const { sql } = await import('kysely');
  const r = await sql<{ s: string }>`select current_schema() as s`.execute(server.ctx.db);
  return r.rows[0]?.s;
}

/**
 * Another instance of the service on the same database as `server` (its SQLite file, or its PostgreSQL schema) and
 * the same clock, not listening: what several instances behind a load balancer share. Close it before `server`.
 */
export async function startTwin(
  server: Pick<TestServer, 'ctx' | 'dataDir' | 'clock'>,
  options: Partial<BuildAppOptions> & { env?: NodeJS.ProcessEnv } = {},
): Promise<FastifyInstance> {
  const { env, ...rest } = options;
  const config = loadConfig({
    DATA_DIR: server.dataDir,
    DIST_DIR: WEB_DIST,
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    ...env,
  });
  const app = await buildApp({
    ...config,
    pgSchema: await pgSchemaOf(server),
    hashParams: TEST_HASH_PARAMS,
    logger: false,
    ...rest,
    clock: server.clock,
  });
  await app.ready();
  return app;
}

/**
 * Runs one admin CLI command (`npm run admin -- …`) against a running test server's database: its DATA_DIR on
 * SQLite, its own schema (through the connection's search_path) on PostgreSQL. Output is captured.
 */
export async function adminOn(
  server: Pick<TestServer, 'ctx' | 'dataDir'>,
  ...argv: string[]
): Promise<{ code: number; out: string; err: string }> {
  const { runAdmin } = await import('../../server/cli/admin');
  const env: NodeJS.ProcessEnv = { DATA_DIR: server.dataDir };
  const schema = await pgSchemaOf(server);
  if (process.env.DATABASE_URL && schema) {
    const url = new URL(process.env.DATABASE_URL);
    url.searchParams.set('options', `-c search_path=${schema}`);
    env.DATABASE_URL = url.toString();
  }
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAdmin(argv, env, { out: (l) => out.push(l), err: (l) => err.push(l) }, TEST_HASH_PARAMS);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** Uploads an avatar picture as the browser's form does (multipart, with the client's cookie and CSRF token). */
export async function uploadAvatar(c: Client, data: Buffer, filename: string, type = 'image/png'): Promise<Answer> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)], { type }), filename);
  const res = await fetch(`${c.base}/objects/ajax/avatars`, {
    method: 'POST',
    headers: { cookie: c.cookieHeader(), 'x-requested-with': 'XMLHttpRequest', 'x-csrf-token': c.csrf ?? '' },
    body: form,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: text ? JSON.parse(text) : undefined };
}
