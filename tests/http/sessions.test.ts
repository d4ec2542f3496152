import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { adminOn, Client, startTwin, useTestServer, withoutRequestId, type TestServer } from '../kit/server';
import { clientFrom, freshAddress, solveSliders } from '../kit/captcha';
import { SESSION_COOKIE } from '../../server/auth/sessions';
import { sha256 } from '../../server/auth/random';
import { ManualClock } from '../../server/clock';
import { EventBus } from '../../server/events';
import { issueToken } from '../../plugins/access-tokens/server/tokens';
import { DEVICE_COOKIE } from '../../plugins/login/server/device-mark';
import { LOCK_AT_FAILURES } from '../../server/auth/lockout';
import { loadConfig } from '../../server/config';
import { buildApp } from '../../server/app';
import { mmdbFile } from '../kit/mmdb';
import {
  SECURITY_PATHS,
  type SessionInfo,
  type SessionList,
  type TrustedBrowserList,
} from '../../plugins/security/contract';

// Devices and sessions (issue 40): every session of the account with its browser, sign-in method and address, ended
// one by one or all but this one, on every instance; the browsers the lockout trusts, forgotten one by one. Runs on
// SQLite here and on PostgreSQL under `npm run test:pg` (the two-instance case then shares one PostgreSQL schema).

const MIN = 60 * 1000;
const HOUR = 60 * MIN;
const RIGHT = 'Secret#123';
const WRONG = 'Wrong#999';

const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 ' +
  'Mobile/15E148 Safari/604.1';
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

const { sessions: SESSIONS, endOthers: END_OTHERS, trustedBrowsers: BROWSERS } = SECURITY_PATHS;
const sessionPath = (id: string) => SECURITY_PATHS.session.replace(':id', id);
const browserPath = (id: string) => SECURITY_PATHS.trustedBrowser.replace(':id', id);
const ME = '/individual/proxy/me';

/** A browser of its own (cookie jar, User-Agent, client address behind the trusted loopback proxy). */
function browser(s: TestServer, userAgent: string, address = freshAddress()): Client {
  return clientFrom(s.url, address, { 'user-agent': userAgent });
}

async function signedIn(s: TestServer, username: string, userAgent: string, address?: string): Promise<Client> {
  const c = browser(s, userAgent, address);
  const a = await c.login(username, RIGHT);
  expect(a.status, a.text).toBe(200);
  return c;
}

async function list(c: Client): Promise<SessionList> {
  const a = await c.req('GET', SESSIONS);
  expect(a.status, a.text).toBe(200);
  return a.json;
}

const mine = async (c: Client): Promise<SessionInfo> => (await list(c)).sessions.find((x) => x.current)!;

/** Every secret a browser holds: its session cookie and that cookie's digest (the row key), CSRF token, device mark. */
function secretsOf(c: Client): string[] {
  const session = c.cookies.get(SESSION_COOKIE)!;
  const mark = c.cookies.get(DEVICE_COOKIE) ?? '';
  const nonces = mark.split('~').map((m) => m.split('.')[1]);
  return [session, sha256(session), c.csrf!, mark, ...nonces, ...nonces.map((n) => sha256(n))].filter(Boolean);
}

function expectNoSecret(text: string, ...clients: Client[]): void {
  for (const c of clients) for (const secret of secretsOf(c)) expect(text).not.toContain(secret);
}

describe('devices and sessions: the list, ending one, ending the others', () => {
  const s = useTestServer({
    env: { TRUST_PROXY: 'loopback' },
    seed: { users: { alice: { password: RIGHT }, bob: { password: RIGHT }, carol: { password: RIGHT } } },
  });

  it('lists every session of the account, newest first: browser, method, address, times, and this device', async () => {
    const laptop = await signedIn(s, 'alice', CHROME_WINDOWS, '10.200.0.1');
    s.clock.advance(2 * MIN);
    const phone = await signedIn(s, 'alice', SAFARI_IPHONE, '10.200.0.2');
    const signedInAt = s.clock.now().getTime();
    // Bob's session is no business of Alice's list.
    const bobs = await signedIn(s, 'bob', FIREFOX_LINUX);

    const a = await laptop.req('GET', SESSIONS);
    expect(a.status).toBe(200);
    const body: SessionList = a.json;
    expect(body.idle_timeout_minutes).toBe(30);
    expect(body.absolute_timeout_hours).toBe(12);
    expect(body.sessions).toHaveLength(2);
    const [newest, older] = body.sessions;
    expect(newest).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      browser: { name: 'Safari', version: '17', os: 'iOS' },
      method: 'password',
      address: '10.200.0.2',
      place: null,
      created_at: new Date(signedInAt).toISOString(),
      last_seen_at: new Date(signedInAt).toISOString(),
      expires_at: new Date(signedInAt + 30 * MIN).toISOString(),
      current: false,
    });
    expect(older).toMatchObject({
      browser: { name: 'Chrome', version: '131', os: 'Windows' },
      method: 'password',
      address: '10.200.0.1',
      current: true,
    });
    // The phone sees the same two, itself as this device.
    expect((await list(phone)).sessions.map((x) => [x.id, x.current])).toEqual([
      [newest.id, true],
      [older.id, false],
    ]);
    // No secret of either browser (nor of Bob's) in the answer.
    expectNoSecret(a.text, laptop, phone, bobs);

    // The address is the last one the session was active from, noted with its last activity (once a minute).
    s.clock.advance(5 * MIN);
    const moved = clientFrom(s.url, '10.200.0.9', { 'user-agent': SAFARI_IPHONE });
    moved.cookies = phone.cookies;
    moved.csrf = phone.csrf;
    expect((await moved.req('GET', ME)).status).toBe(200);
    const after = (await list(laptop)).sessions.find((x) => x.id === newest.id)!;
    expect(after.address).toBe('10.200.0.9');
    expect(after.last_seen_at).toBe(new Date(signedInAt + 5 * MIN).toISOString());
    expect(after.expires_at).toBe(new Date(signedInAt + 35 * MIN).toISOString());
    expect(after.created_at).toBe(newest.created_at);
  });

  it('tells when a session ends: the idle timeout, or the absolute one when that comes first', async () => {
    const c = await signedIn(s, 'carol', FIREFOX_LINUX);
    const start = s.clock.now().getTime();
    expect((await mine(c)).expires_at).toBe(new Date(start + 30 * MIN).toISOString());
    for (let i = 0; i < 24; i++) {
      s.clock.advance(29 * MIN);
      expect((await c.req('GET', ME)).status).toBe(200);
    }
    // Active 11 h 36 min after sign-in: the absolute timeout (12 h) comes before the idle one (12 h 6 min).
    expect((await mine(c)).expires_at).toBe(new Date(start + 12 * HOUR).toISOString());
  });

  it('ends another session of the account: its next request is 401, it leaves the list, and the event is told', async () => {
    const laptop = await signedIn(s, 'alice', CHROME_WINDOWS);
    const phone = await signedIn(s, 'alice', SAFARI_IPHONE);
    const phoneId = (await mine(phone)).id;
    const emit = vi.spyOn(s.ctx.events, 'emit');
    try {
      const a = await laptop.req('DELETE', sessionPath(phoneId));
      expect(a.status, a.text).toBe(200);
      expect(a.json).toEqual({ ended: 1 });
      expect(emit).toHaveBeenCalledWith({
        type: 'session.ended',
        by: 'member',
        count: 1,
        to: { userId: s.users.alice.id },
      });
    } finally {
      emit.mockRestore();
    }
    expect((await phone.req('GET', ME)).status).toBe(401);
    expect((await list(laptop)).sessions.map((x) => x.id)).not.toContain(phoneId);
    // Once ended, it is not found again.
    const again = await laptop.req('DELETE', sessionPath(phoneId));
    expect(again.status).toBe(404);
    expect(again.json.code).toBe('SessionNotFound');
    expect((await laptop.req('GET', ME)).status).toBe(200);
  });

  it('refuses to end the session making the call (that one signs out), in the caller’s language', async () => {
    const c = await signedIn(s, 'carol', CHROME_WINDOWS);
    const id = (await mine(c)).id;
    const en = await c.req('DELETE', sessionPath(id), { headers: { 'accept-language': 'en-US' } });
    expect(en.status).toBe(409);
    expect(en.json).toMatchObject({ code: 'SessionIsCurrent', message: expect.stringMatching(/sign out/) });
    const zh = await c.req('DELETE', sessionPath(id), { headers: { 'accept-language': 'zh-CN' } });
    expect(zh.json).toMatchObject({ code: 'SessionIsCurrent', message: expect.stringMatching(/退出登录/) });
    expect((await c.req('GET', ME)).status).toBe(200);
  });

  it('ends every other session and keeps this one', async () => {
    const [a, b, c] = [
      await signedIn(s, 'bob', CHROME_WINDOWS),
      await signedIn(s, 'bob', SAFARI_IPHONE),
      await signedIn(s, 'bob', FIREFOX_LINUX),
    ];
    const before = (await list(a)).sessions.length;
    expect(before).toBeGreaterThanOrEqual(3);
    const ended = await a.req('POST', END_OTHERS);
    expect(ended.status, ended.text).toBe(200);
    expect(ended.json).toEqual({ ended: before - 1 });
    expect((await b.req('GET', ME)).status).toBe(401);
    expect((await c.req('GET', ME)).status).toBe(401);
    expect((await a.req('GET', ME)).status).toBe(200);
    const left = (await list(a)).sessions;
    expect(left).toHaveLength(1);
    expect(left[0].current).toBe(true);
    // Nothing else to end.
    expect((await a.req('POST', END_OTHERS)).json).toEqual({ ended: 0 });
  });

  it('IDOR: another account cannot see or end a session, nor forget a browser; its ids answer as unknown ones', async () => {
    const alice = await signedIn(s, 'alice', CHROME_WINDOWS);
    const mallory = await signedIn(s, 'carol', FIREFOX_LINUX);
    const aliceSession = (await mine(alice)).id;
    const aliceBrowser = ((await alice.req('GET', BROWSERS)).json as TrustedBrowserList).browsers.find(
      (x) => x.current,
    )!.id;
    expect(aliceBrowser).toMatch(/^[0-9a-f]{32}$/);

    // Not in her lists.
    expect((await list(mallory)).sessions.map((x) => x.id)).not.toContain(aliceSession);
    const hers: TrustedBrowserList = (await mallory.req('GET', BROWSERS)).json;
    expect(hers.browsers.map((x) => x.id)).not.toContain(aliceBrowser);

    // Ending Alice's session: exactly the answer of an id nobody has.
    const foreign = await mallory.req('DELETE', sessionPath(aliceSession));
    const unknown = await mallory.req('DELETE', sessionPath('0'.repeat(32)));
    expect(foreign.status).toBe(404);
    expect(withoutRequestId(foreign.json)).toEqual(withoutRequestId(unknown.json));
    expect(foreign.json.code).toBe('SessionNotFound');
    // Forgetting Alice's browser: the same.
    const foreignBrowser = await mallory.req('DELETE', browserPath(aliceBrowser));
    const unknownBrowser = await mallory.req('DELETE', browserPath('0'.repeat(32)));
    expect(foreignBrowser.status).toBe(404);
    expect(withoutRequestId(foreignBrowser.json)).toEqual(withoutRequestId(unknownBrowser.json));
    expect(foreignBrowser.json.code).toBe('TrustedBrowserNotFound');
    // "Ending the others" ends only her own.
    await mallory.req('POST', END_OTHERS);

    // Alice is untouched.
    expect((await alice.req('GET', ME)).status).toBe(200);
    expect((await list(alice)).sessions.map((x) => x.id)).toContain(aliceSession);
    const still: TrustedBrowserList = (await alice.req('GET', BROWSERS)).json;
    expect(still.browsers.map((x) => x.id)).toContain(aliceBrowser);
  });

  it('answers 400 in the caller’s language to an id that cannot be one', async () => {
    const c = await signedIn(s, 'carol', CHROME_WINDOWS);
    for (const bad of ['not%20an%20id', 'a.b', 'x'.repeat(65), '%E4%BD%A0']) {
      for (const path of [sessionPath(bad), browserPath(bad)]) {
        const en = await c.req('DELETE', path, { headers: { 'accept-language': 'en-US' } });
        expect(en.status, `${path}: ${en.text}`).toBe(400);
        expect(en.json.code).toBe('InvalidParameter');
        const zh = await c.req('DELETE', path, { headers: { 'accept-language': 'zh-CN' } });
        expect(zh.status).toBe(400);
        expect(zh.json.code).toBe('InvalidParameter');
        expect(zh.json.message).not.toBe(en.json.message);
        expect(zh.json.message).toMatch(/[\u4e00-\u9fff]/);
      }
    }
  });

  it('a personal access token (open API) reaches none of these calls', async () => {
    const c = await signedIn(s, 'bob', CHROME_WINDOWS);
    const other = await signedIn(s, 'bob', SAFARI_IPHONE);
    const otherId = (await mine(other)).id;
    const markId = ((await c.req('GET', BROWSERS)).json as TrustedBrowserList).browsers[0].id;
    const { token } = await issueToken(s.ctx.db, s.clock, {
      userId: s.users.bob.id,
      name: 'ci',
      scopes: ['*'],
      expiresAt: new Date(s.clock.now().getTime() + 30 * 24 * HOUR),
    });
    const bare = new Client(s.url);
    for (const headers of [{ 'x-yunxiao-token': token }, { authorization: `Bearer ${token}` }] as Record<
      string,
      string
    >[]) {
      for (const [method, path] of [
        ['GET', SESSIONS],
        ['DELETE', sessionPath(otherId)],
        ['POST', END_OTHERS],
        ['GET', BROWSERS],
        ['DELETE', browserPath(markId)],
      ] as const) {
        const a = await bare.req(method, path, { headers });
        expect(a.status, `${method} ${path}`).toBe(401);
        expect(a.json.code).toBe('Unauthorized');
      }
    }
    expect((await other.req('GET', ME)).status).toBe(200);
    expect(((await c.req('GET', BROWSERS)).json as TrustedBrowserList).browsers.map((x) => x.id)).toContain(markId);
  });

  it('notes how a session was signed in: a third-party one by its provider, one from before as unknown', async () => {
    const c = await signedIn(s, 'carol', CHROME_WINDOWS);
    // A third-party sign-in (its flow is oauth-sign-in.test.ts's) and a session from before migration 065.
    await s.ctx.sessions.create(s.users.carol.id, { method: 'lark', userAgent: FIREFOX_LINUX });
    const old = await s.ctx.sessions.create(s.users.carol.id, { method: 'password' });
    await s.ctx.db
      .updateTable('sessions')
      .set({ method: 'unknown', user_agent: null, address: null })
      .where('id_hash', '=', old.idHash)
      .execute();
    const all = (await list(c)).sessions;
    expect(all.find((x) => x.method === 'lark')).toMatchObject({
      browser: { name: 'Firefox', version: '133', os: 'Linux' },
      address: null,
    });
    expect(all.find((x) => x.method === 'unknown')).toMatchObject({
      browser: { name: null, version: null, os: null },
      address: null,
    });
  });
});

describe('devices and sessions: the approximate place, from a local GeoIP database only', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'account-geoip-'));
  const file = path.join(dir, 'City.mmdb');
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const s = useTestServer(() => {
    fs.writeFileSync(
      file,
      mmdbFile({
        '203.0.113.0/24': {
          city: { names: { en: 'Hangzhou', 'zh-CN': '杭州' } },
          subdivisions: [{ names: { en: 'Zhejiang', 'zh-CN': '浙江' } }],
          country: { names: { en: 'China', 'zh-CN': '中国' } },
        },
        '198.51.100.0/24': { country: { names: { en: 'Germany' } } },
      }),
    );
    return { env: { TRUST_PROXY: 'loopback', GEOIP_DATABASE: file }, seed: { users: { hana: { password: RIGHT } } } };
  });

  it('names the place of each session’s address in the caller’s language; none for an address it does not know', async () => {
    const here = await signedIn(s, 'hana', CHROME_WINDOWS, '203.0.113.7');
    await signedIn(s, 'hana', SAFARI_IPHONE, '198.51.100.20');
    await signedIn(s, 'hana', FIREFOX_LINUX, '10.9.9.9');
    const places = async (locale: string) =>
      Object.fromEntries(
        (
          (await here.req('GET', SESSIONS, { headers: { 'accept-language': locale } })).json as SessionList
        ).sessions.map((x) => [x.address, x.place]),
      );
    expect(await places('en-US')).toEqual({
      '203.0.113.7': 'Hangzhou, Zhejiang, China',
      '198.51.100.20': 'Germany',
      '10.9.9.9': null,
    });
    expect(await places('zh-CN')).toEqual({
      '203.0.113.7': '中国 浙江 杭州',
      '198.51.100.20': 'Germany',
      '10.9.9.9': null,
    });
  });

  it('refuses to start on a GEOIP_DATABASE that is missing or not a MaxMind DB file', async () => {
    expect(() => loadConfig({ GEOIP_DATABASE: path.join(dir, 'missing.mmdb') })).toThrow(/GEOIP_DATABASE/);
    const junk = path.join(dir, 'junk.mmdb');
    fs.writeFileSync(junk, 'not a database');
    const config = loadConfig({ DATA_DIR: path.join(dir, 'data'), GEOIP_DATABASE: junk });
    await expect(buildApp({ ...config, logger: false, scheduler: false })).rejects.toThrow(
      /GEOIP_DATABASE .*junk\.mmdb is not a MaxMind DB file/,
    );
  });
});

describe('devices and sessions: two instances on one database', () => {
  const s = useTestServer({ seed: { users: { dora: { password: RIGHT } } } });

  it(`a session ended on one instance answers 401 on the other at its next request (${process.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, async () => {
    const twin = await startTwin(s);
    try {
      const first = new Client(s.url, { 'user-agent': CHROME_WINDOWS });
      expect((await first.login('dora', RIGHT)).status).toBe(200);
      // The second browser signs in on the second instance and works there.
      const login = await twin.inject({
        method: 'POST',
        url: '/users/ajax/login',
        headers: { 'x-requested-with': 'XMLHttpRequest', 'user-agent': SAFARI_IPHONE },
        payload: { username: 'dora', password: RIGHT },
      });
      expect(login.statusCode, login.body).toBe(200);
      const cookie = login.cookies.find((c) => c.name === SESSION_COOKIE)!.value;
      const onTwin = () => twin.inject({ method: 'GET', url: ME, headers: { cookie: `${SESSION_COOKIE}=${cookie}` } });
      expect((await onTwin()).statusCode).toBe(200);

      // Instance 1 lists it (signed in on instance 2) and ends it.
      const other = (await list(first)).sessions.find((x) => !x.current)!;
      expect(other.browser.name).toBe('Safari');
      expect((await first.req('DELETE', sessionPath(other.id))).json).toEqual({ ended: 1 });
      const after = await onTwin();
      expect(after.statusCode).toBe(401);
      expect(after.json().code).toBe('Unauthorized');

      // And the other way round: ending the others on instance 2 signs instance 1's browser out.
      const again = await twin.inject({
        method: 'POST',
        url: '/users/ajax/login',
        headers: { 'x-requested-with': 'XMLHttpRequest' },
        payload: { username: 'dora', password: RIGHT },
      });
      const cookie2 = again.cookies.find((c) => c.name === SESSION_COOKIE)!.value;
      const ended = await twin.inject({
        method: 'POST',
        url: END_OTHERS,
        headers: {
          cookie: `${SESSION_COOKIE}=${cookie2}`,
          'x-requested-with': 'XMLHttpRequest',
          'x-csrf-token': again.json().csrf_token,
        },
      });
      expect(ended.statusCode, ended.body).toBe(200);
      expect(ended.json()).toEqual({ ended: 1 });
      expect((await first.req('GET', ME)).status).toBe(401);
    } finally {
      await twin.close();
    }
  });
});

describe('trusted browsers: the lockout’s device marks, listed and forgotten', () => {
  const s = useTestServer({
    env: { TRUST_PROXY: 'loopback' },
    seed: { users: { erin: { password: RIGHT }, frank: { password: RIGHT } } },
  });

  const check = async (c: Client, name: string) =>
    withoutRequestId((await c.req('GET', `/users/ajax/users/${encodeURIComponent(name)}/check`)).json);

  it('lists the browser a sign-in marked, with its browser and times, and no secret', async () => {
    const home = await signedIn(s, 'erin', CHROME_WINDOWS);
    const firstAt = s.clock.now().getTime();
    s.clock.advance(3 * MIN);
    // A sign-in renews the mark; the browser keeps its first use.
    expect((await home.login('erin', RIGHT)).status).toBe(200);
    s.clock.advance(MIN);
    const phone = await signedIn(s, 'erin', SAFARI_IPHONE);
    const a = await home.req('GET', BROWSERS);
    expect(a.status).toBe(200);
    const body: TrustedBrowserList = a.json;
    expect(body.browsers).toHaveLength(2);
    expect(body.browsers[0]).toMatchObject({ browser: { name: 'Safari', version: '17', os: 'iOS' }, current: false });
    expect(body.browsers[1]).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      browser: { name: 'Chrome', version: '131', os: 'Windows' },
      first_used_at: new Date(firstAt).toISOString(),
      last_used_at: new Date(firstAt + 3 * MIN).toISOString(),
      current: true,
    });
    expectNoSecret(a.text, home, phone);
    // The stored digests are not the ids either.
    const rows = await s.ctx.db.selectFrom('sign_in_devices').select('value_hash').execute();
    for (const r of rows) expect(a.text).not.toContain(r.value_hash);
  });

  it('a mark from before browsers were noted shows an unknown browser', async () => {
    const c = await signedIn(s, 'frank', FIREFOX_LINUX);
    await s.ctx.db
      .updateTable('sign_in_devices')
      .set({ browser_name: null, browser_version: null, browser_os: null })
      .where('user_id', '=', s.users.frank.id)
      .where('kind', '=', 'mark')
      .execute();
    const body: TrustedBrowserList = (await c.req('GET', BROWSERS)).json;
    expect(body.browsers[0].browser).toEqual({ name: null, version: null, os: null });
  });

  it('forgetting a browser: it leaves the list and the lockout treats it as a stranger', async () => {
    const home = await signedIn(s, 'frank', CHROME_WINDOWS);
    const laptop = await signedIn(s, 'frank', SAFARI_IPHONE);
    // Strangers lock the name for strangers; the owner's marked browsers still get in.
    const passes = await solveSliders(s.ctx, s.url, 'frank', LOCK_AT_FAILURES);
    for (const p of passes)
      await clientFrom(s.url).req('POST', '/users/ajax/login', {
        body: { username: 'frank', password: WRONG, captcha_pass: p },
      });
    expect(await check(clientFrom(s.url), 'frank')).toMatchObject({ locked: true });
    expect(await check(laptop, 'frank')).toMatchObject({ locked: false });

    // From home, forget the laptop.
    const listed: TrustedBrowserList = (await home.req('GET', BROWSERS)).json;
    const laptopId = listed.browsers.find((x) => x.browser.name === 'Safari')!.id;
    const a = await home.req('DELETE', browserPath(laptopId));
    expect(a.status, a.text).toBe(200);
    expect(a.json).toEqual({ success: true });
    const after: TrustedBrowserList = (await home.req('GET', BROWSERS)).json;
    expect(after.browsers.map((x) => x.id)).not.toContain(laptopId);
    expect((await home.req('DELETE', browserPath(laptopId))).json.code).toBe('TrustedBrowserNotFound');
    // The laptop is a stranger now: locked like any other, even with the right password.
    expect(await check(laptop, 'frank')).toMatchObject({ locked: true });
    expect(
      (await laptop.req('POST', '/users/ajax/login', { body: { username: 'frank', password: RIGHT } })).json.code,
    ).toBe('AccountLocked');
    // Home still trusted.
    expect(await check(home, 'frank')).toMatchObject({ locked: false });
  });
});

describe('admin CLI: a member’s sessions', () => {
  // The CLI reads the system clock: the service's starts at the real time so both see the same sessions alive.
  const s = useTestServer({ clock: new ManualClock(Date.now()), seed: { users: { gina: { password: RIGHT } } } });

  it('lists the sessions of a name and ends one, or all, as ended by an admin', async () => {
    const a = new Client(s.url, { 'user-agent': CHROME_WINDOWS });
    const b = new Client(s.url, { 'user-agent': SAFARI_IPHONE });
    const c = new Client(s.url, { 'user-agent': 'curl/8.5.0' });
    for (const x of [a, b, c]) {
      expect((await x.login('gina', RIGHT)).status).toBe(200);
      s.clock.advance(1000);
    }
    const emit = vi.spyOn(EventBus.prototype, 'emit');

    const listed = await adminOn(s, 'list-sessions', '--username', 'gina');
    expect(listed.code, listed.err).toBe(0);
    const lines = listed.out.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^[0-9a-f]{32}\tpassword\t127\.0\.0\.1\tunknown\tsigned in /);
    expect(lines[1]).toMatch(/^[0-9a-f]{32}\tpassword\t127\.0\.0\.1\tSafari 17 on iOS\tsigned in /);
    expect(lines[2]).toMatch(/\tChrome 131 on Windows\tsigned in .* UTC, last active .* UTC$/);
    const json = await adminOn(s, 'list-sessions', '--username', 'GINA', '--json');
    const sessions = JSON.parse(json.out) as { id: string; browser: { name: string | null } }[];
    expect(sessions.map((x) => x.browser.name)).toEqual([null, 'Safari', 'Chrome']);
    for (const x of [a, b, c]) expectNoSecret(listed.out + json.out, x);

    const safari = sessions[1].id;
    expect(await adminOn(s, 'end-sessions', '--username', 'gina', '--id', safari)).toMatchObject({
      code: 0,
      out: `ended session ${safari} of gina`,
    });
    expect(emit).toHaveBeenLastCalledWith({
      type: 'session.ended',
      by: 'admin',
      count: 1,
      to: { userId: s.users.gina.id },
    });
    expect((await b.req('GET', ME)).status).toBe(401);
    expect((await a.req('GET', ME)).status).toBe(200);
    expect(await adminOn(s, 'end-sessions', '--username', 'gina', '--id', safari)).toMatchObject({
      code: 1,
      err: `end-sessions: gina has no live session ${safari}`,
    });

    expect(await adminOn(s, 'end-sessions', '--username', 'gina', '--all')).toMatchObject({
      code: 0,
      out: 'ended 2 session(s) of gina',
    });
    expect(emit).toHaveBeenLastCalledWith({
      type: 'session.ended',
      by: 'admin',
      count: 2,
      to: { userId: s.users.gina.id },
    });
    emit.mockRestore();
    expect((await a.req('GET', ME)).status).toBe(401);
    expect((await c.req('GET', ME)).status).toBe(401);
    expect((await adminOn(s, 'list-sessions', '--username', 'gina')).out).toBe('gina has no live session');
  });

  it('refuses an unknown name and a call without --id or --all (or with both)', async () => {
    expect(await adminOn(s, 'list-sessions', '--username', 'nobody')).toMatchObject({
      code: 1,
      err: 'list-sessions: user "nobody" does not exist',
    });
    expect((await adminOn(s, 'end-sessions', '--username', 'gina')).code).toBe(2);
    expect((await adminOn(s, 'end-sessions', '--username', 'gina', '--id', 'x', '--all')).code).toBe(2);
    expect((await adminOn(s, 'end-sessions', '--all')).code).toBe(2);
  });
});
