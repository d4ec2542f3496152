// The second step on every way in (issue 41, item 4): a directory password (a real OpenLDAP) and a third-party
// sign-in (a real OpenID provider, a redirect flow) of an account with a second factor make no session before it is
// answered; the third-party callback lands on the sign-in page, whose first render brings the step; a third-party
// account waiting to be bound is bound only once the factor is right.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, useTestServer, type Answer, type TestServer } from '../kit/server';
import { clientFrom, solveSlider } from '../kit/captcha';
import { expectNoSecrets } from '../kit/secrets';
import { LDAP_PASSWORDS, startSlapd, type TestDirectory } from '../kit/slapd';
import { startOAuthProvider, type TestOAuthProvider } from '../kit/oauth-provider';
import { SESSION_COOKIE } from '../../server/auth/sessions';
import { totpCode } from '../../server/auth/second-factor/index';
import { findUserByUsername } from '../../server/services/accounts';
import { bindIdentity } from '../../server/services/identities';
import { setDirectory } from '../../plugins/login/server/directory';
import { identityProviderOf, setOAuthProvider } from '../../plugins/login/server/oauth';
import { STEP_COOKIE } from '../../plugins/login/server/second-step';
import { SECOND_STEP_PATHS } from '../../plugins/login/limits';
import type { PageConfig } from '../../schemas/page-config';
import { loginErrorPath, OAUTH_PROVIDERS } from '../../schemas/sign-in';

const PASSWORD = 'Secret#123';
const CLIENT_SECRET = 'oauth-client-secret-7hQ!x';
const LOGIN = '/users/ajax/login';
const ME = '/individual/proxy/me';
const STEP = 30_000;

/** Gives an account an authenticator app (confirmed now; its codes then come from the next step): the secret. */
async function enrolTotp(s: TestServer, user: { id: string; username: string }): Promise<string> {
  const e = await s.ctx.secondFactors.startTotp({ ...user, name: '' });
  expect(await s.ctx.secondFactors.confirmTotp(user.id, totpCode(e.secret, s.clock.now().getTime()))).toBe(true);
  s.clock.advance(STEP);
  return e.secret;
}

/** The account's history entries of one kind. */
const historyOf = async (s: TestServer, userId: string, kind: string) =>
  (
    await s.ctx.db
      .selectFrom('account_history')
      .select('detail')
      .where('user_id', '=', userId)
      .where('kind', '=', kind)
      .execute()
  ).map((r) => JSON.parse(r.detail) as Record<string, unknown>);

/** The login plugin's first-render data of a sign-in page (its `pageData`), from the page's config. */
async function loginPageData(c: Client, page = '/users/login'): Promise<Record<string, unknown> | undefined> {
  const answer = await c.req('GET', page, { xhr: false });
  expect(answer.status).toBe(200);
  const config = /<script[^>]*id="page-config"[^>]*>([\s\S]*?)<\/script>/.exec(answer.text);
  return (JSON.parse(config![1]) as PageConfig).bootstrap?.plugins?.login as Record<string, unknown> | undefined;
}

describe('the second step after a directory password (OpenLDAP)', () => {
  const s = useTestServer({ env: { TRUST_PROXY: 'loopback' } });
  let d: TestDirectory;
  const secrets = new Set<string>([LDAP_PASSWORDS.lin, LDAP_PASSWORDS.mo]);

  beforeAll(async () => {
    d = await startSlapd();
    const secretFile = path.join(s.dataDir, 'ldap-bind-password');
    fs.writeFileSync(secretFile, d.ldap.bindPassword, { mode: 0o600 });
    await setDirectory(
      { db: s.ctx.db, clock: s.clock },
      {
        kind: 'ldap',
        url: d.url,
        bindDn: d.ldap.bindDn,
        bindSecretRef: `file:${secretFile}`,
        baseDn: d.ldap.baseDn,
        userFilter: d.ldap.userFilter,
        loginAttr: d.ldap.loginAttr,
        nameAttr: d.ldap.nameAttr,
        emailAttr: d.ldap.emailAttr,
      },
    );
  });
  afterAll(async () => {
    await d?.close();
  });

  const ldapLogin = async (c: Client, username: string, password: string, pass?: string) => {
    const a = await c.req('POST', LOGIN, {
      body: { username, password, method: 'ldap', ...(pass ? { captcha_pass: pass } : {}) },
    });
    for (const v of c.cookies.values()) secrets.add(v);
    return a;
  };

  it('a directory account with a second factor gets the step, then a session whose method is ldap', async () => {
    // The first directory sign-in makes the account; then it sets up an app.
    expect((await ldapLogin(clientFrom(s.url), 'lin', LDAP_PASSWORDS.lin)).status).toBe(200);
    const lin = (await findUserByUsername(s.ctx.db, 'lin'))!;
    const secret = await enrolTotp(s, lin);
    secrets.add(secret);

    const c = clientFrom(s.url);
    const first = await ldapLogin(c, 'lin', LDAP_PASSWORDS.lin);
    expect(first.status, first.text).toBe(200);
    expect(first.json.second_factor.methods).toEqual(expect.arrayContaining(['totp', 'recovery']));
    expect(first.headers.getSetCookie().some((h) => h.startsWith(`${SESSION_COOKIE}=`))).toBe(false);
    expect((await c.req('GET', ME)).status).toBe(401);
    const code = totpCode(secret, s.clock.now().getTime());
    secrets.add(code);
    const done = await c.req('POST', SECOND_STEP_PATHS.secondFactor, { body: { method: 'totp', code } });
    expect(done.status, done.text).toBe(200);
    c.csrf = done.json.csrf_token;
    const listed = await c.req('GET', '/users/ajax/v1/my/sessions');
    expect(listed.json.sessions.find((x: { current: boolean }) => x.current)).toMatchObject({ method: 'ldap' });
    expect(await historyOf(s, lin.id, 'sign-in.succeeded')).toContainEqual({ method: 'ldap', factor: 'totp' });
  });

  it('wrong codes and wrong directory passwords share one count: 4 wrong codes, then a wrong password locks', async () => {
    expect((await ldapLogin(clientFrom(s.url), 'mo', LDAP_PASSWORDS.mo)).status).toBe(200);
    const mo = (await findUserByUsername(s.ctx.db, 'mo'))!;
    secrets.add(await enrolTotp(s, mo));
    const c = clientFrom(s.url);
    expect((await ldapLogin(c, 'mo', LDAP_PASSWORDS.mo)).json.second_factor).toBeDefined();
    for (let i = 0; i < 4; i++) {
      const a = await c.req('POST', SECOND_STEP_PATHS.secondFactor, { body: { method: 'totp', code: '000000' } });
      expect(a.status).toBe(401);
    }
    const wrong = await ldapLogin(c, 'mo', 'Not#ThePassword-1', await solveSlider(s.ctx, c, 'mo'));
    expect(wrong.status).toBe(423);
    expect(wrong.json.code).toBe('AccountLocked');
  });

  it('logs no password, code or cookie', () => {
    expectNoSecrets(s.logs, [...secrets]);
  });
});

describe('the second step after a third-party sign-in (OpenID provider)', () => {
  const s = useTestServer({
    seed: { users: { ann: { password: PASSWORD }, ben: { password: PASSWORD }, cid: { password: PASSWORD } } },
  });
  let op: TestOAuthProvider;
  const secrets = new Set<string>([CLIENT_SECRET, PASSWORD]);
  const answers: string[] = [];

  beforeAll(async () => {
    const secretFile = path.join(s.dataDir, 'oauth-client-secret');
    fs.writeFileSync(secretFile, `${CLIENT_SECRET}\n`);
    op = await startOAuthProvider({
      clients: OAUTH_PROVIDERS.map((p) => ({
        clientId: `svc-${p}`,
        clientSecret: CLIENT_SECRET,
        redirectUris: [`${s.url}/login/oauth/${p}/callback`],
      })),
    });
    for (const provider of OAUTH_PROVIDERS)
      await setOAuthProvider(s.ctx, {
        provider,
        clientId: `svc-${provider}`,
        clientSecretFile: secretFile,
        authorizeUrl: op.authorizeUrl,
        tokenUrl: op.tokenUrl,
        userinfoUrl: op.userinfoUrl,
        scope: 'openid',
        idField: 'sub',
        nameField: 'name',
      });
  });
  afterAll(async () => {
    await op?.stop();
  });

  async function call(c: Client, method: string, p: string, opts: Parameters<Client['req']>[2] = {}): Promise<Answer> {
    const a = await c.req(method, p, opts);
    answers.push(a.text, a.headers.get('location') ?? '');
    for (const value of c.cookies.values()) secrets.add(value);
    return a;
  }

  /** The whole round trip in browser `c` as `login` at the provider: the service's answer to the callback. */
  async function viaProvider(c: Client, login: string, next?: string): Promise<Answer> {
    const start = await call(c, 'GET', `/login/oauth/lark${next ? `?next=${encodeURIComponent(next)}` : ''}`, {
      xhr: false,
    });
    expect(start.status).toBe(302);
    const callback = await op.authorize(start.headers.get('location')!, login);
    const code = new URL(callback).searchParams.get('code');
    if (code) secrets.add(code);
    return call(c, 'GET', callback.slice(s.url.length), { xhr: false });
  }

  it('lands on the sign-in page with the step in its first render; no session before the code', async () => {
    const ann = s.users.ann;
    await bindIdentity(s.ctx, { username: 'ann', provider: identityProviderOf('lark'), openId: 'lark-ann' });
    const secret = await enrolTotp(s, ann);
    secrets.add(secret);
    const c = new Client(s.url);
    const back = await viaProvider(c, 'lark-ann', '/users/settings/ssh');
    expect(back.status, back.text).toBe(302);
    expect(back.headers.get('location')).toBe('/users/login?next=%2Fusers%2Fsettings%2Fssh');
    expect(back.headers.getSetCookie().some((h) => h.startsWith(`${SESSION_COOKIE}=`))).toBe(false);
    expect(c.cookies.has(STEP_COOKIE)).toBe(true);
    expect((await call(c, 'GET', ME)).status).toBe(401);
    expect(await historyOf(s, ann.id, 'sign-in.succeeded')).toEqual([]);

    const data = await loginPageData(c);
    expect(data).toEqual({
      secondFactor: {
        methods: expect.arrayContaining(['totp', 'recovery']),
        expires_at: s.clock.now().getTime() + 10 * 60_000,
      },
    });
    // Another browser's page brings no step.
    expect(await loginPageData(new Client(s.url))).toBeUndefined();

    const code = totpCode(secret, s.clock.now().getTime());
    secrets.add(code);
    const done = await call(c, 'POST', SECOND_STEP_PATHS.secondFactor, { body: { method: 'totp', code } });
    expect(done.status, done.text).toBe(200);
    c.csrf = done.json.csrf_token;
    expect((await call(c, 'GET', ME)).json.username).toBe('ann');
    const listed = await call(c, 'GET', '/users/ajax/v1/my/sessions');
    expect(listed.json.sessions.find((x: { current: boolean }) => x.current)).toMatchObject({ method: 'lark' });
    expect(await historyOf(s, ann.id, 'sign-in.succeeded')).toEqual([{ method: 'lark', factor: 'totp' }]);
    // The step is gone from the page too: its cookie was cleared.
    expect(c.cookies.has(STEP_COOKIE)).toBe(false);
  });

  it('the sign-in page brings null once the waiting sign-in expired', async () => {
    const c = new Client(s.url);
    expect((await viaProvider(c, 'lark-ann')).headers.get('location')).toBe('/users/login');
    s.clock.advance(10 * 60_000);
    expect(await loginPageData(c)).toEqual({ secondFactor: null });
  });

  it('a third-party account waiting to be bound is bound only once the factor is right', async () => {
    const ben = s.users.ben;
    const secret = await enrolTotp(s, ben);
    secrets.add(secret);
    const c = new Client(s.url);
    const back = await viaProvider(c, 'lark-new-for-ben');
    expect(back.headers.get('location')).toBe(loginErrorPath('notBound', 'lark'));
    const first = await call(c, 'POST', LOGIN, { body: { username: 'ben', password: PASSWORD, bind_pending: true } });
    expect(first.status, first.text).toBe(200);
    expect(first.json.second_factor).toBeDefined();
    // The bind waits with the sign-in: its own cookie is spent, nothing is bound yet.
    expect(c.cookies.has('account_oauth_bind')).toBe(false);
    const bound = () =>
      s.ctx.db.selectFrom('identities').select('user_id').where('open_id', '=', 'lark-new-for-ben').executeTakeFirst();
    expect(await bound()).toBeUndefined();
    const wrong = await call(c, 'POST', SECOND_STEP_PATHS.secondFactor, { body: { method: 'totp', code: '000000' } });
    expect(wrong.status).toBe(401);
    expect(await bound()).toBeUndefined();
    const code = totpCode(secret, s.clock.now().getTime());
    secrets.add(code);
    const done = await call(c, 'POST', SECOND_STEP_PATHS.secondFactor, { body: { method: 'totp', code } });
    expect(done.status, done.text).toBe(200);
    expect((await bound())?.user_id).toBe(ben.id);
    // Next time the provider alone leads to the step (the factor is still asked).
    const again = await viaProvider(new Client(s.url), 'lark-new-for-ben');
    expect(again.headers.get('location')).toBe('/users/login');
  });

  it('an account without a second factor still signs in at the callback', async () => {
    await bindIdentity(s.ctx, { username: 'cid', provider: identityProviderOf('lark'), openId: 'lark-cid' });
    const c = new Client(s.url);
    const back = await viaProvider(c, 'lark-cid');
    expect(back.headers.get('location')).toBe('/users/settings');
    expect(c.cookies.has(SESSION_COOKIE)).toBe(true);
    expect(c.cookies.has(STEP_COOKIE)).toBe(false);
  });

  it('logs and answers no secret, code or cookie', () => {
    expectNoSecrets(s.logs, [...secrets]);
    const inAnswer = (x: string) =>
      /^[0-9]+$/.test(x)
        ? answers.some((a) => new RegExp(`(?<![0-9.])${x}(?![0-9])`).test(a))
        : answers.some((a) => a.includes(x));
    expect([...secrets].filter((x) => x.length >= 6 && inAnswer(x))).toEqual([]);
  });
});
