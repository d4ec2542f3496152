import fs from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Client, seedAccounts, TEST_HASH_PARAMS, tempDataDir, useTestServer } from '../kit/server';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { dropPgSchema } from '../../server/db/index';
import { issueToken } from '../../plugins/access-tokens/server/tokens';
import { SCOPE_USER_READ } from '../../server/routes/oapi';
import { CREDENTIAL_TIMELINE_PAGE, CREDENTIAL_USES_PATH } from '../../schemas/credential-kinds';

// Issue 42, tokens in use: every token presented on the open API that names a token row is recorded (address,
// client, action, outcome), throttled to one row per address, outcome and minute; the owner reads a token's
// timeline page by page; the token list shows the last use with its address.

const DAY = 24 * 60 * 60 * 1000;
const MINUTE = 60_000;
const USER = '/oapi/v1/platform/user';
const ORGS = '/oapi/v1/platform/organizations';

describe('token uses on the open API', () => {
  const s = useTestServer({
    env: { TRUST_PROXY: '127.0.0.1' },
    seed: {
      users: { alice: { password: 'Secret#123' }, bob: { password: 'Secret#123' } },
    },
  });
  let alice: Client;
  let bob: Client;
  const issue = async (name: string, scopes = [SCOPE_USER_READ], days: number | null = 30) =>
    issueToken(s.ctx.db, s.clock, {
      userId: s.users.alice.id,
      name,
      scopes,
      expiresAt: days === null ? null : new Date(s.clock.now().getTime() + days * DAY),
    });
  /** An open-API call with the token, from `ip` (as the trusted proxy says) and a CI client. */
  const call = (token: string, ip = '203.0.113.5', path = USER, agent = 'ci-runner/2.1') =>
    new Client(s.url).req('GET', path, {
      xhr: false,
      headers: { 'x-yunxiao-token': token, 'x-forwarded-for': ip, 'user-agent': agent },
    });
  const timeline = (c: Client, id: string, before?: string, kind = 'token') =>
    c.req(
      'GET',
      `${CREDENTIAL_USES_PATH}?kind=${kind}&id=${encodeURIComponent(id)}${before ? `&before=${encodeURIComponent(before)}` : ''}`,
    );

  // Fresh sessions each time: the tests move the clock by days.
  beforeEach(async () => {
    ({ alice, bob } = await s.signIn('alice', 'bob'));
  });

  it('records a use with its address, client, action and outcome; the owner reads it in the timeline', async () => {
    const { token, record } = await issue('ci');
    expect((await call(token)).status).toBe(200);
    const a = await timeline(alice, record.id);
    expect(a.status, a.text).toBe(200);
    expect(a.json).toEqual({
      uses: [
        {
          id: expect.any(String),
          at: s.clock.now().toISOString(),
          address: '203.0.113.5',
          client: 'ci-runner/2.1',
          action: `GET ${USER}`,
          outcome: 'ok',
          reason: null,
        },
      ],
      next: null,
    });
  });

  it('records refused uses: a scope the token lacks, and an expired token', async () => {
    const { token, record } = await issue('short', [SCOPE_USER_READ], 1);
    expect((await call(token, '198.51.100.7', ORGS)).status).toBe(403);
    s.clock.advance(DAY);
    expect((await call(token, '198.51.100.7')).status).toBe(401);
    ({ alice } = await s.signIn('alice'));
    const a = await timeline(alice, record.id);
    expect(
      a.json.uses.map((u: { action: string; outcome: string; reason: string | null }) => [
        u.action,
        u.outcome,
        u.reason,
      ]),
    ).toEqual([
      [`GET ${USER}`, 'refused', 'expired'],
      [`GET ${ORGS}`, 'refused', 'scope'],
    ]);
    // An unknown or malformed token names no row: nothing is recorded, and the answer is the same 401.
    expect((await call('pt-nothing')).status).toBe(401);
  });

  it('writes one row for 1,000 uses in a minute from one address, and a new one the next minute', async () => {
    const { token, record } = await issue('busy');
    // Through the whole pipeline without sockets (inject), so the thousand calls stay cheap.
    const headers = { 'x-yunxiao-token': token, 'x-forwarded-for': '192.0.2.10', 'user-agent': 'ci-runner/2.1' };
    for (let i = 0; i < 1000; i += 100) {
      const answers = await Promise.all(
        Array.from({ length: 100 }, () => s.app.inject({ method: 'GET', url: USER, headers })),
      );
      expect(answers.every((x) => x.statusCode === 200)).toBe(true);
    }
    const rows = () =>
      s.ctx.db.selectFrom('credential_uses').select('id').where('credential_id', '=', record.id).execute();
    expect(await rows()).toHaveLength(1);
    s.clock.advance(MINUTE);
    expect((await call(token, '192.0.2.10')).status).toBe(200);
    expect(await rows()).toHaveLength(2);
  });

  /** `count` successful uses of alice's token, one per address `<prefix>.<i>`; `after` runs after each. */
  async function recordUses(credentialId: string, count: number, prefix: string, after?: (i: number) => unknown) {
    for (let i = 0; i < count; i++) {
      await s.ctx.credentialUses.record({
        kind: 'token',
        credentialId,
        userId: s.users.alice.id,
        address: `${prefix}.${i}`,
        client: null,
        action: `GET ${USER}`,
        outcome: 'ok',
      });
      after?.(i);
    }
  }

  it('pages the timeline newest first with a next cursor; another member reads nothing of it', async () => {
    const { record } = await issue('paged');
    const total = CREDENTIAL_TIMELINE_PAGE + 7;
    // Two rows share each instant: the cursor must not skip or repeat one.
    await recordUses(record.id, total, '10.0.0', (i) => i % 2 === 1 && s.clock.advance(1000));
    const first = await timeline(alice, record.id);
    expect(first.json.uses).toHaveLength(CREDENTIAL_TIMELINE_PAGE);
    expect(first.json.next).toEqual(expect.any(String));
    const second = await timeline(alice, record.id, first.json.next);
    expect(second.json.uses).toHaveLength(7);
    expect(second.json.next).toBeNull();
    const addresses = [...first.json.uses, ...second.json.uses].map((u: { address: string }) => u.address);
    expect(new Set(addresses).size).toBe(total);
    const times = [...first.json.uses, ...second.json.uses].map((u: { at: string }) => Date.parse(u.at));
    expect(times).toEqual([...times].sort((x, y) => y - x));

    // The owner check is the rows' owner: bob asking for alice's token gets an empty page, as for an unknown id.
    const other = await timeline(bob, record.id);
    expect(other.status).toBe(200);
    expect(other.json).toEqual({ uses: [], next: null });
    expect((await new Client(s.url).req('GET', `${CREDENTIAL_USES_PATH}?kind=token&id=${record.id}`)).status).toBe(401);
  });

  it('offers no older page after a timeline of exactly one page', async () => {
    const { record } = await issue('exact');
    await recordUses(record.id, CREDENTIAL_TIMELINE_PAGE, '10.0.1');
    const page = await timeline(alice, record.id);
    expect(page.json.uses).toHaveLength(CREDENTIAL_TIMELINE_PAGE);
    expect(page.json.next).toBeNull();
  });

  it('answers a bad query with the one error shape, in both languages', async () => {
    for (const q of [
      'kind=password&id=x',
      'kind=token',
      'kind=token&id=x&before=yesterday',
      'kind=token&id=x&extra=1',
    ]) {
      const en = await alice.req('GET', `${CREDENTIAL_USES_PATH}?${q}`, { headers: { 'accept-language': 'en-US' } });
      expect(en.status, q).toBe(400);
      expect(Object.keys(en.json).sort()).toEqual(['code', 'message', 'requestId', 'status']);
      expect(en.json.code).toBe('InvalidParameter');
      expect(en.json.message).toMatch(/^Parameter invalid/);
      const zh = await alice.req('GET', `${CREDENTIAL_USES_PATH}?${q}`, { headers: { 'accept-language': 'zh-CN' } });
      expect(zh.json.code).toBe('InvalidParameter');
      expect(zh.json.message).not.toBe(en.json.message);
    }
  });

  it('the token list shows the last use with its address; a token never used shows none', async () => {
    const used = await issue('listed');
    const idle = await issue('idle');
    s.clock.advance(MINUTE);
    expect((await call(used.token, '203.0.113.99', USER, 'curl/8.5.0')).status).toBe(200);
    const a = await alice.req('POST', '/users/ajax/v1/my/tokens:search', {
      body: { include_expired: true, pagination: { current_page: 1, page_size: 100 } },
    });
    expect(a.status, a.text).toBe(200);
    const byId = new Map(a.json.access_tokens.map((t: { token_id: string }) => [t.token_id, t]));
    expect(byId.get(used.record.id)).toMatchObject({
      last_used_at: s.clock.now().toISOString(),
      last_use: { at: s.clock.now().toISOString(), address: '203.0.113.99', client: 'curl/8.5.0' },
    });
    expect(byId.get(idle.record.id)).toMatchObject({ last_used_at: null, last_use: null });
  });

  it('forgets the uses of a deleted token', async () => {
    const { token, record } = await issue('gone');
    expect((await call(token)).status).toBe(200);
    const del = await alice.req('DELETE', `/users/ajax/v1/my/tokens/${record.id}`);
    expect(del.status, del.text).toBe(200);
    expect((await timeline(alice, record.id)).json.uses).toEqual([]);
  });
});

describe('token uses refused by an organisation', () => {
  // No open-API route names an organisation yet: this one (added before the service starts) does, as a future one
  // would, so the tenant check's refusals are recorded with their reasons.
  let app: Awaited<ReturnType<typeof buildApp>>;
  let dataDir: string;
  let token: string;
  let tokenId: string;
  let carolId: string;
  let orgs: Record<string, string>;
  beforeAll(async () => {
    dataDir = tempDataDir();
    const config = loadConfig({
      DATA_DIR: dataDir,
      ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    });
    const pgSchema = config.databaseUrl ? `t_uses_${process.pid}` : undefined;
    app = await buildApp({ ...config, pgSchema, hashParams: TEST_HASH_PARAMS, logger: false, scheduler: false });
    app.get(
      '/oapi/v1/test/organizations/:orgId',
      { config: { auth: 'token', scope: SCOPE_USER_READ, orgScoped: true } },
      async () => ({ ok: true }),
    );
    const seeded = await seedAccounts(app.ctx, {
      orgs: { Walled: { apps: ['codeup'], ipWhitelist: ['10.0.0.0/8'] }, Elsewhere: ['codeup'] },
      users: { carol: { password: 'Secret#123', org: 'Walled' } },
    });
    orgs = seeded.orgs;
    carolId = seeded.users.carol.id;
    const issued = await issueToken(app.ctx.db, app.ctx.clock, {
      userId: seeded.users.carol.id,
      name: 'walled',
      scopes: [SCOPE_USER_READ],
      expiresAt: null,
    });
    token = issued.token;
    tokenId = issued.record.id;
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    const config = loadConfig({
      DATA_DIR: dataDir,
      ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    });
    if (config.databaseUrl) await dropPgSchema(config.databaseUrl, `t_uses_${process.pid}`);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('records the IP whitelist and membership refusals, and the use let through', async () => {
    const get = (org: string, ip: string) =>
      app.inject({
        method: 'GET',
        url: `/oapi/v1/test/organizations/${org}`,
        headers: { 'x-yunxiao-token': token },
        remoteAddress: ip,
      });
    expect((await get(orgs.Walled, '192.0.2.1')).statusCode).toBe(403);
    expect((await get(orgs.Elsewhere, '10.1.2.3')).statusCode).toBe(403);
    expect((await get(orgs.Walled, '10.1.2.3')).statusCode).toBe(200);
    const uses = await app.ctx.credentialUses.timeline(carolId, 'token', tokenId);
    expect(uses.map((u) => [u.address, u.outcome, u.reason]).sort()).toEqual([
      ['10.1.2.3', 'ok', null],
      ['10.1.2.3', 'refused', 'not-member'],
      ['192.0.2.1', 'refused', 'ip-whitelist'],
    ]);
  });

  it('records a use refused until the owner has changed the password', async () => {
    await app.ctx.db.updateTable('users').set({ must_change_password: 1 }).where('id', '=', carolId).execute();
    const a = await app.inject({
      method: 'GET',
      url: '/oapi/v1/platform/user',
      headers: { 'x-yunxiao-token': token },
      remoteAddress: '198.51.100.20',
    });
    expect(a.statusCode).toBe(403);
    expect(a.json().code).toBe('PasswordChangeRequired');
    const uses = await app.ctx.credentialUses.timeline(carolId, 'token', tokenId);
    expect(uses.find((u) => u.address === '198.51.100.20')).toMatchObject({
      action: 'GET /oapi/v1/platform/user',
      outcome: 'refused',
      reason: 'password-change',
    });
  });
});
