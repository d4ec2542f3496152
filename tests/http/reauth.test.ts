// Re-authentication ("sudo mode", issue 40 item 3): every sensitive call of a session whose last proof (a sign-in, the
// password again) is older than REAUTH_WINDOW_MINUTES answers 403 ReauthRequired and changes nothing, whatever the
// web does; a proof rotates the session; wrong proofs take sign-in lockout slots. The directory account's proof:
// email-change-directory.test.ts; the provider round trip: oauth-sign-in.test.ts.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Client, INBOX, useTestServer, type Answer } from '../kit/server';
import { LOCK_AT_FAILURES } from '../../server/auth/lockout';
import { SESSION_COOKIE } from '../../server/auth/sessions';
import { REAUTH_PATHS, REAUTH_REQUIRED } from '../../schemas/reauth';
import { DEFAULT_REAUTH_WINDOW_MINUTES, loadConfig } from '../../server/config';

const WINDOW_MS = DEFAULT_REAUTH_WINDOW_MINUTES * 60_000;
const PASSWORD = 'Secret#123';
const REAUTH = REAUTH_PATHS.my;
const PACKAGES_RESET = '/uiless/proxy/package/api/external/users/user/password';
const DAY = 24 * 3600 * 1000;

describe('re-authentication before sensitive changes', () => {
  const users = ['alice', 'bob', 'carol', 'dave', 'erin', 'noemail'];
  const s = useTestServer({
    seed: {
      orgs: { Acme: ['codeup', 'packages'] },
      users: Object.fromEntries(
        users.map((u) => [
          u,
          { password: PASSWORD, org: 'Acme', ...(u === 'noemail' ? {} : { email: `${u}@example.com` }) },
        ]),
      ),
    },
  });
  let keyDir: string;
  let publicKey: string;
  beforeAll(() => {
    keyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reauth-keys-'));
    execFileSync('ssh-keygen', ['-q', '-N', '', '-t', 'ed25519', '-C', 'reauth@test', '-f', path.join(keyDir, 'k')]);
    publicKey = fs.readFileSync(path.join(keyDir, 'k.pub'), 'utf8');
  });
  afterAll(() => fs.rmSync(keyDir, { recursive: true, force: true }));

  const signedIn = async (username: string) => (await s.signIn(username))[username];
  const userId = (username: string) => s.users[username].id;
  const tokenBody = () => ({
    name: 'ci',
    description: 'for tests',
    expires_at: new Date(s.clock.now().getTime() + 30 * DAY).toISOString(),
    token_scopes: ['base:user:read'],
  });

  /** Every sensitive session call of the slices mounted here, with what shows that it changed nothing. */
  const sensitive: Array<{ name: string; call: (c: Client, username: string) => Promise<Answer> }> = [
    {
      name: 'password change',
      call: (c) =>
        c.req('PUT', '/users/ajax/v1/my/password', { body: { old_password: PASSWORD, new_password: 'Brand#New9' } }),
    },
    {
      name: 'e-mail bind',
      call: (c) => c.req('POST', '/users/ajax/v1/my/emails:bind', { body: { email: 'x@example.org' } }),
    },
    {
      name: 'e-mail change',
      call: (c) => c.req('POST', '/users/ajax/v1/my/emails:rebind', { body: { email: 'x@example.org' } }),
    },
    {
      name: 'e-mail unbind',
      call: (c, u) => c.req('POST', '/individual/proxy/my/email:unbind', { body: { email: `${u}@example.com` } }),
    },
    { name: 'token', call: (c) => c.req('POST', '/users/ajax/v1/my/tokens', { body: tokenBody() }) },
    { name: 'token (legacy path)', call: (c) => c.req('POST', '/users/ajax/v1/tokens', { body: tokenBody() }) },
    {
      name: 'SSH key',
      call: (c) =>
        c.req('POST', '/uiless/proxy/codeup/api/v3/user/keys', {
          body: { name: 'laptop', key: publicKey, scope: 'read_only' },
        }),
    },
    {
      name: 'SSH key (global path)',
      call: (c) =>
        c.req('POST', '/codeup/api/v3/user/keys', { body: { name: 'laptop', key: publicKey, scope: 'read_only' } }),
    },
    { name: 'artifact password reset', call: (c) => c.req('POST', PACKAGES_RESET) },
  ];

  /** What the sensitive calls change, read from the database: equal before and after means nothing changed. */
  async function footprint(username: string) {
    const id = userId(username);
    const db = s.ctx.db;
    const [user, tokens, keys, packages] = await Promise.all([
      db
        .selectFrom('users')
        .select(['password_hash', 'email', 'email_verified'])
        .where('id', '=', id)
        .executeTakeFirst(),
      db.selectFrom('personal_access_tokens').select('id').where('user_id', '=', id).execute(),
      db.selectFrom('ssh_keys').select('id').where('user_id', '=', id).execute(),
      db.selectFrom('packages_credentials').selectAll().where('user_id', '=', id).execute(),
    ]);
    return { user, tokens: tokens.length, keys: keys.length, packages };
  }

  const prove = (c: Client, password = PASSWORD) => c.req('POST', REAUTH, { body: { password } });
  /** Proves and keeps the rotated CSRF token, as the web client does. */
  async function proveOk(c: Client) {
    const a = await prove(c);
    expect(a.status, a.text).toBe(200);
    c.csrf = a.json.csrf_token;
    return a;
  }

  it('a session proved longer ago than the window is refused every sensitive call, and nothing changes', async () => {
    for (const [i, { name, call }] of sensitive.entries()) {
      const username = i % 2 ? 'alice' : 'bob';
      const c = await signedIn(username);
      s.clock.advance(WINDOW_MS + 1000);
      const before = await footprint(username);
      const a = await call(c, username);
      expect([name, a.status, a.json?.code]).toEqual([name, 403, REAUTH_REQUIRED]);
      expect(a.json.message).toBeTruthy();
      expect(await footprint(username)).toEqual(before);
      // The session itself still works for everything else.
      expect((await c.req('GET', '/individual/proxy/me')).status).toBe(200);
    }
    const c = await signedIn('noemail');
    s.clock.advance(WINDOW_MS + 1000);
    const zh = await c.req('POST', '/users/ajax/v1/my/emails:bind', {
      body: { email: 'n@example.org' },
      headers: { 'accept-language': 'zh-CN' },
    });
    expect([zh.status, zh.json.code, zh.json.message]).toEqual([
      403,
      REAUTH_REQUIRED,
      '请确认是你本人：重新输入密码后继续。',
    ]);
    expect((await footprint('noemail')).user?.email).toBeNull();
  });

  it('a fresh proof lets each call through; one older than the window is refused again', async () => {
    for (const { name, call } of sensitive) {
      const username = name.startsWith('e-mail bind') ? 'noemail' : 'carol';
      const c = await signedIn(username);
      s.clock.advance(WINDOW_MS + 1000);
      await proveOk(c);
      const before = await footprint(username);
      const a = await call(c, username);
      expect([name, a.status < 300]).toEqual([name, true]);
      expect(await footprint(username)).not.toEqual(before);
      // Put back what the next call needs (the password, the address).
      if (name === 'password change')
        await s.ctx.db
          .updateTable('users')
          .set({ password_hash: before.user!.password_hash })
          .where('id', '=', userId(username))
          .execute();
      if (name.startsWith('e-mail'))
        await s.ctx.db
          .updateTable('users')
          .set({ email: username === 'noemail' ? null : `${username}@example.com`, email_verified: 1 })
          .where('id', '=', userId(username))
          .execute();
      // The same key twice is refused (409): the next SSH call adds it afresh.
      await s.ctx.db.deleteFrom('ssh_keys').where('user_id', '=', userId(username)).execute();
      // The e-mail calls allow one mail a minute.
      s.clock.advance(61_000);
    }
    // The window, from the proof: just inside it the call goes through, just after it is refused.
    const c = await signedIn('dave');
    s.clock.advance(WINDOW_MS + 1000);
    const proof = await proveOk(c);
    const provedAt = s.clock.now().getTime();
    expect(proof.json.fresh_until).toBe(new Date(provedAt + WINDOW_MS).toISOString());
    s.clock.advance(WINDOW_MS - 1000);
    expect((await c.req('POST', '/users/ajax/v1/my/tokens', { body: tokenBody() })).status).toBe(200);
    s.clock.advance(1000);
    const late = await c.req('POST', '/users/ajax/v1/my/tokens', { body: { ...tokenBody(), name: 'ci2' } });
    expect([late.status, late.json.code]).toEqual([403, REAUTH_REQUIRED]);
    expect((await footprint('dave')).tokens).toBe(1);
  });

  it('tells how to prove and until when; a sign-in is a proof', async () => {
    const c = await signedIn('erin');
    const signedInAt = s.clock.now().getTime();
    const state = await c.req('GET', REAUTH);
    expect(state.json).toEqual({
      method: 'password',
      provider: null,
      directory: null,
      window_minutes: DEFAULT_REAUTH_WINDOW_MINUTES,
      fresh_until: new Date(signedInAt + WINDOW_MS).toISOString(),
    });
    s.clock.advance(WINDOW_MS);
    expect((await c.req('GET', REAUTH)).json.fresh_until).toBeNull();
    expect((await new Client(s.url).req('GET', REAUTH)).status).toBe(401);
    // A proof needs the session's CSRF token like any change.
    expect((await c.req('POST', REAUTH, { body: { password: PASSWORD }, csrf: false })).status).toBe(403);
  });

  it('a proof rotates the session cookie: the old cookie is signed out, the CSRF token stays (other tabs go on)', async () => {
    const c = await signedIn('erin');
    s.clock.advance(WINDOW_MS + 1000);
    const oldCookie = c.cookies.get(SESSION_COOKIE)!;
    const oldCsrf = c.csrf!;
    const rowBefore = await s.ctx.db
      .selectFrom('sessions')
      .selectAll()
      .where('user_id', '=', userId('erin'))
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    const a = await proveOk(c);
    const newCookie = c.cookies.get(SESSION_COOKIE)!;
    expect(newCookie).toBeTruthy();
    expect(newCookie).not.toBe(oldCookie);
    expect(a.json.csrf_token).toBe(oldCsrf);
    // Old cookie: no session any more.
    const old = new Client(s.url);
    old.cookies.set(SESSION_COOKIE, oldCookie);
    old.csrf = oldCsrf;
    const late = await old.req('GET', '/individual/proxy/me');
    expect(late.status).toBe(401);
    // A call still on its way with the old cookie does not clear the browser's new one (same name): no Set-Cookie.
    expect(late.headers.get('set-cookie')).toBeNull();
    // The new cookie with a wrong CSRF token: refused, nothing made.
    const forged = await c.req('POST', '/users/ajax/v1/my/tokens', {
      body: tokenBody(),
      headers: { 'x-csrf-token': 'x'.repeat(43) },
    });
    expect([forged.status, forged.json.code]).toEqual([403, 'CsrfRejected']);
    // The new cookie and the token the page (and its other tabs) already hold: the proof holds.
    expect((await c.req('POST', '/users/ajax/v1/my/tokens', { body: tokenBody() })).status).toBe(200);
    // The same row: started, sign-in method and public handle stay (the security page still knows it).
    const rowAfter = await s.ctx.db
      .selectFrom('sessions')
      .selectAll()
      .where('user_id', '=', userId('erin'))
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    expect(rowAfter.id_hash).not.toBe(rowBefore.id_hash);
    expect(rowAfter.csrf_token).toBe(a.json.csrf_token);
    expect(rowAfter.created_at).toBe(rowBefore.created_at);
    expect(rowAfter.handle).toBe(rowBefore.handle);
    expect(rowAfter.method).toBe(rowBefore.method);
    expect(Number(rowAfter.proved_at)).toBe(s.clock.now().getTime());
  });

  it('wrong proofs take sign-in lockout slots: 100 in parallel evaluate 5 passwords; then the right one is refused', async () => {
    const c = await signedIn('carol');
    s.clock.advance(WINDOW_MS + 1000);
    const spy = vi.spyOn(s.ctx.events, 'emit');
    const verify = vi.spyOn(s.ctx.hasher, 'verify');
    let answers: Answer[];
    try {
      answers = await Promise.all(Array.from({ length: 100 }, (_, i) => prove(c, `Wrong#${1000 + i}`)));
      expect(verify.mock.calls.length).toBe(LOCK_AT_FAILURES);
    } finally {
      verify.mockRestore();
    }
    const codes = answers.reduce<Record<string, number>>(
      (n, a) => ({ ...n, [a.json.code]: (n[a.json.code] ?? 0) + 1 }),
      {},
    );
    expect(codes.ReauthPasswordIncorrect).toBe(LOCK_AT_FAILURES - 1);
    // The rest: locked, or over the sign-in budget of this address (60 a minute, shared with the sign-in page).
    expect(Object.keys(codes).sort()).toEqual(
      [
        'ReauthAccountLocked',
        'ReauthPasswordIncorrect',
        ...(codes.TooManyRequestsMinute ? ['TooManyRequestsMinute'] : []),
      ].sort(),
    );
    const types = spy.mock.calls.map(([e]) => e.type);
    spy.mockRestore();
    expect(types.filter((t) => t === 'reauth.failed').length).toBeGreaterThanOrEqual(LOCK_AT_FAILURES);
    expect(types.filter((t) => t === 'account.locked')).toHaveLength(1);
    expect(types).not.toContain('reauth.succeeded');
    s.clock.advance(61_000);
    // Locked: the right password is refused unevaluated; the sign-in page refuses the account in this browser too
    // (the lock of browsers carrying the account's device mark, as wrong sign-ins here would have set it).
    const right = await prove(c);
    expect([right.status, right.json.code]).toEqual([423, 'ReauthAccountLocked']);
    expect((await s.ctx.lockout.state('carol', 'marked')).locked).toBe(true);
    expect((await c.login('carol', PASSWORD)).status).toBe(423);
    expect((await c.req('POST', '/users/ajax/v1/my/tokens', { body: tokenBody() })).json.code).toBe(REAUTH_REQUIRED);
    // The owner hears of the lock once.
    const inbox = await c.req('POST', `${INBOX}:list`, { body: { page_size: 100 } });
    expect(inbox.json.messages.filter((m: { type: string }) => m.type === 'account.locked')).toHaveLength(1);
    // Smart lockout: a browser without the mark counts apart (a session cookie copied elsewhere locks only there).
    expect((await s.ctx.lockout.state('carol', 'unmarked')).failures).toBe(0);
    await s.ctx.lockout.unlock('carol');
  });

  it('a right proof clears the count and is told to the account; an account without a password cannot give one', async () => {
    const c = await signedIn('dave');
    s.clock.advance(WINDOW_MS + 1000);
    const spy = vi.spyOn(s.ctx.events, 'emit');
    try {
      expect((await prove(c, 'Wrong#0001')).json.code).toBe('ReauthPasswordIncorrect');
      expect((await s.ctx.lockout.state('dave', 'marked')).failures).toBe(1);
      await proveOk(c);
      expect((await s.ctx.lockout.state('dave', 'marked')).failures).toBe(0);
      const events = spy.mock.calls.map(([e]) => e);
      expect(events.map((e) => e.type)).toEqual(['reauth.failed', 'reauth.succeeded']);
      expect(events[0]).toMatchObject({ method: 'password', reason: 'wrong-password', to: { userId: userId('dave') } });
      expect(events[1]).toMatchObject({ method: 'password', to: { userId: userId('dave') } });
      expect(JSON.stringify(events)).not.toContain('Wrong#0001');
      expect(JSON.stringify(events)).not.toContain(PASSWORD);
    } finally {
      spy.mockRestore();
    }
    expect(s.logs.join('\n')).not.toContain('Wrong#0001');
    // The session cookie copied to a browser without the account's mark: its wrong proofs count in the other lock.
    const copied = new Client(s.url);
    copied.cookies.set(SESSION_COOKIE, c.cookies.get(SESSION_COOKIE)!);
    copied.csrf = c.csrf;
    s.clock.advance(WINDOW_MS + 1000);
    expect((await prove(copied, 'Wrong#0002')).json.code).toBe('ReauthPasswordIncorrect');
    expect((await s.ctx.lockout.state('dave', 'unmarked')).failures).toBe(1);
    expect((await s.ctx.lockout.state('dave', 'marked')).failures).toBe(0);
    await s.ctx.lockout.unlock('dave');

    // A third-party account without a password (no provider enabled here): signing in again is its proof.
    await s.seed({ users: { tp: { org: 'Acme' } } });
    const tp = new Client(s.url);
    const session = await s.ctx.sessions.create(userId('tp'), { method: 'dingtalk' });
    tp.cookies.set(SESSION_COOKIE, session.id);
    tp.csrf = session.csrfToken;
    expect((await tp.req('GET', REAUTH)).json).toMatchObject({ method: 'provider', provider: null });
    const none = await prove(tp);
    expect([none.status, none.json.code]).toEqual([400, 'ReauthMethodUnavailable']);
  });

  it('a first password needs no re-authentication: it keeps its own proof (mailed code, directory password)', async () => {
    await s.seed({ users: { fresh: { org: 'Acme' } } });
    const c = new Client(s.url);
    const session = await s.ctx.sessions.create(userId('fresh'), { method: 'dingtalk' });
    c.cookies.set(SESSION_COOKIE, session.id);
    c.csrf = session.csrfToken;
    s.clock.advance(WINDOW_MS + 1000);
    // An account with neither a password nor an address has nothing to prove a first password with.
    const a = await c.req('PUT', '/users/ajax/v1/my/password', { body: { new_password: 'First#Pass1' } });
    expect(a.status, a.text).toBe(200);
  });

  it('REAUTH_WINDOW_MINUTES is read and checked at start', () => {
    expect(loadConfig({ REAUTH_WINDOW_MINUTES: '3' }).reauthWindowMinutes).toBe(3);
    expect(loadConfig({}).reauthWindowMinutes).toBe(DEFAULT_REAUTH_WINDOW_MINUTES);
    for (const bad of ['0', '-1', '1.5', 'ten', '721'])
      expect(() => loadConfig({ REAUTH_WINDOW_MINUTES: bad })).toThrow(/REAUTH_WINDOW_MINUTES/);
  });
});

describe('a configured window', () => {
  const s = useTestServer({
    env: { REAUTH_WINDOW_MINUTES: '2' },
    seed: { users: { alice: { password: PASSWORD } }, signIn: ['alice'] },
  });
  it('holds for that many minutes', async () => {
    const c = s.clients.alice;
    expect((await c.req('GET', REAUTH)).json.window_minutes).toBe(2);
    s.clock.advance(2 * 60_000);
    const a = await c.req('POST', '/users/ajax/v1/my/tokens', {
      body: { name: 'ci', expires_at: new Date(s.clock.now().getTime() + DAY).toISOString(), token_scopes: [] },
    });
    expect([a.status, a.json.code]).toEqual([403, REAUTH_REQUIRED]);
  });
});
