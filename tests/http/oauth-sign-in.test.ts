import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, useTestServer, type Answer } from '../kit/server';
import { startOAuthProvider, type TestOAuthProvider } from '../kit/oauth-provider';
import { expectNoSecrets } from '../kit/secrets';
import { bindIdentity } from '../../server/services/identities';
import { sha256 } from '../../server/auth/random';
import { DEFAULT_REAUTH_WINDOW_MINUTES } from '../../server/config';
import { REAUTH_PATHS } from '../../schemas/reauth';
import type { PageConfig } from '../../schemas/page-config';
import { OAUTH_PROVIDERS, loginErrorPath, type OAuthProvider } from '../../schemas/sign-in';
import {
  OAUTH_HTTP_TIMEOUT_MS,
  identityProviderOf,
  setOAuthProvider,
  type SetOAuthProviderInput,
} from '../../plugins/login/server/oauth';

const PASSWORD = 'Secret#123';
const CLIENT_SECRET = 'oauth-client-secret-9f3Kx!2';
const MINUTE = 60_000;
const IDENTITIES = '/individual/proxy/my/identities';
const PENDING = '/users/ajax/login/pending-bind';

const notBound = (p: OAuthProvider) => loginErrorPath('notBound', p);
const loginFailed = (p: OAuthProvider) => loginErrorPath('loginFailed', p);

describe('third-party sign-in (OAuth 2.0 code flow with PKCE) against a real OpenID provider', () => {
  const s = useTestServer({
    seed: {
      users: {
        alice: { password: PASSWORD },
        bob: { password: PASSWORD },
        carol: { password: PASSWORD },
        dave: { password: PASSWORD },
      },
    },
  });
  let op: TestOAuthProvider;
  let secretFile: string;
  /** Every answer of the service in these tests (bodies and Location headers), to look for secrets in. */
  const answers: string[] = [];
  /** Codes the provider issued and tickets/sessions the service set: none may reach a log line. */
  const secrets = new Set<string>([CLIENT_SECRET, PASSWORD]);

  /** The service's configuration of `provider` for the test provider (id field `sub`, scope `openid`). */
  const configure = (provider: OAuthProvider, more: Partial<SetOAuthProviderInput> = {}) =>
    setOAuthProvider(s.ctx, {
      provider,
      clientId: `svc-${provider}`,
      clientSecretFile: secretFile,
      authorizeUrl: op.authorizeUrl,
      tokenUrl: op.tokenUrl,
      userinfoUrl: op.userinfoUrl,
      scope: 'openid',
      idField: 'sub',
      nameField: 'name',
      ...more,
    });

  beforeAll(async () => {
    secretFile = path.join(s.dataDir, 'oauth-client-secret');
    fs.writeFileSync(secretFile, `${CLIENT_SECRET}\n`);
    op = await startOAuthProvider({
      clients: OAUTH_PROVIDERS.map((p) => ({
        clientId: `svc-${p}`,
        clientSecret: CLIENT_SECRET,
        redirectUris: [`${s.url}/login/oauth/${p}/callback`],
      })),
      accounts: { 'ext-named': { name: 'Erin External' }, 'ext-no-emp': { name: 'No Employee Id' } },
    });
    for (const p of OAUTH_PROVIDERS) await configure(p);
  });
  afterAll(async () => {
    await op?.stop();
  });

  /** What the sign-in page brings for the login plugin's first render (its `pageData`), from the page's config. */
  async function loginPageData(c: Client, page = '/users/login?bind=1'): Promise<unknown> {
    const answer = await call(c, 'GET', page);
    expect(answer.status).toBe(200);
    const config = /<script[^>]*id="page-config"[^>]*>([\s\S]*?)<\/script>/.exec(answer.text);
    return (JSON.parse(config![1]) as PageConfig).bootstrap?.plugins?.login;
  }

  /** A service call whose answer is kept for the leak check; session and bind cookies join the secrets. */
  async function call(c: Client, method: string, p: string, opts: Parameters<Client['req']>[2] = {}): Promise<Answer> {
    const a = await c.req(method, p, opts);
    answers.push(a.text, a.headers.get('location') ?? '');
    for (const [name, value] of c.cookies) if (name !== 'account_oauth_state') secrets.add(value);
    return a;
  }

  /** A browser navigation (no X-Requested-With) to a path or to an absolute URL of the service. */
  const navigate = (c: Client, url: string) =>
    call(c, 'GET', url.startsWith(s.url) ? url.slice(s.url.length) : url, { xhr: false });

  /** Starts a sign-in in browser `c`: the authorize URL the service redirected to. */
  async function start(c: Client, provider: OAuthProvider, next?: string): Promise<string> {
    const a = await navigate(c, `/login/oauth/${provider}${next ? `?next=${encodeURIComponent(next)}` : ''}`);
    expect(a.status, a.text).toBe(302);
    const location = a.headers.get('location')!;
    expect(location.startsWith(op.authorizeUrl)).toBe(true);
    return location;
  }

  /** The provider's pages completed as `login`: the callback URL (with code and state, or error). */
  async function atProvider(authorizeUrl: string, login: string, options?: { deny?: boolean }): Promise<string> {
    const callback = await op.authorize(authorizeUrl, login, options);
    expect(callback.startsWith(`${s.url}/login/oauth/`), callback).toBe(true);
    const code = new URL(callback).searchParams.get('code');
    if (code) secrets.add(code);
    return callback;
  }

  /** The whole round trip in browser `c`: the service's answer to the callback, and the callback URL. */
  async function signInVia(c: Client, provider: OAuthProvider, login: string, next?: string) {
    const callback = await atProvider(await start(c, provider, next), login);
    return { answer: await navigate(c, callback), callback };
  }

  const me = (c: Client) => call(c, 'GET', '/individual/proxy/me');

  /** A password sign-in that binds this browser's pending third-party account. */
  async function passwordBind(c: Client, username: string): Promise<Answer> {
    const a = await call(c, 'POST', '/users/ajax/login', {
      body: { username, password: PASSWORD, bind_pending: true },
    });
    if (a.status === 200) c.csrf = a.json.csrf_token;
    return a;
  }

  it('redirects to the authorize URL with the code flow, the client, the callback, state and an S256 challenge', async () => {
    const c = new Client(s.url);
    const a = await navigate(c, '/login/oauth/dingtalk?next=%2Fusers%2Fprofile');
    expect(a.status).toBe(302);
    const url = new URL(a.headers.get('location')!);
    expect(`${url.origin}${url.pathname}`).toBe(op.authorizeUrl);
    const q = url.searchParams;
    expect(q.get('response_type')).toBe('code');
    expect(q.get('client_id')).toBe('svc-dingtalk');
    expect(q.get('redirect_uri')).toBe(`${s.url}/login/oauth/dingtalk/callback`);
    expect(q.get('scope')).toBe('openid');
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.has('client_secret')).toBe(false);
    // The browser's nonce: HttpOnly, SameSite=Lax, only sent back to /login/oauth, ten minutes.
    const cookie = a.headers.getSetCookie().find((h) => h.startsWith('account_oauth_state='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\/login\/oauth(;|$)/);
    expect(cookie).toMatch(/Max-Age=600/);
    expect(cookie).not.toMatch(/Secure/i);
    // Only digests are stored: the state itself is nowhere in the table.
    const rows = await s.ctx.db.selectFrom('oauth_states').selectAll().execute();
    expect(rows.some((r) => r.state_hash === q.get('state'))).toBe(false);
    expect(rows.some((r) => r.next_url === '/users/profile')).toBe(true);
    // Two sign-ins in one browser share its nonce, so both can complete.
    await navigate(c, '/login/oauth/lark');
    expect((await navigate(c, '/login/oauth/lark')).headers.getSetCookie()[0]).toContain(
      c.cookies.get('account_oauth_state'),
    );
  });

  it('signs a bound account in on each provider (new session, landing on the settings page)', async () => {
    for (const provider of OAUTH_PROVIDERS) {
      await bindIdentity(s.ctx, {
        username: 'alice',
        provider: identityProviderOf(provider),
        openId: `${provider}-alice`,
      });
      const c = new Client(s.url);
      const { answer } = await signInVia(c, provider, `${provider}-alice`);
      expect(answer.status, `${provider}: ${answer.text}`).toBe(302);
      expect(answer.headers.get('location')).toBe('/users/settings');
      const cookie = answer.headers.getSetCookie().find((h) => h.startsWith('account_session='))!;
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Lax/i);
      expect(cookie).toMatch(/Path=\//);
      // The browser gets the account's device mark, as at a password sign-in (smart lockout).
      expect(c.cookies.get('account_device')?.split('.')[0]).toBe(s.users.alice.id);
      const who = await me(c);
      expect(who.status).toBe(200);
      expect(who.json.username).toBe('alice');
      // The security page names the provider it signed in through.
      const listed = await call(c, 'GET', '/users/ajax/v1/my/sessions');
      expect(listed.json.sessions.find((x: { current: boolean }) => x.current)).toMatchObject({ method: provider });
    }
  });

  it('rotates the session: the session the browser had ends', async () => {
    const c = new Client(s.url);
    expect((await c.login('bob', PASSWORD)).status).toBe(200);
    const old = c.cookies.get('account_session')!;
    const { answer } = await signInVia(c, 'dingtalk', 'dingtalk-alice');
    expect(answer.status).toBe(302);
    expect(c.cookies.get('account_session')).not.toBe(old);
    expect((await me(c)).json.username).toBe('alice');
    const stale = new Client(s.url);
    stale.cookies.set('account_session', old);
    expect((await me(stale)).status).toBe(401);
  });

  it('goes to a validated next: a path or PUBLIC_URL-less absolute URLs fall back to the settings page', async () => {
    const path1 = await signInVia(new Client(s.url), 'dingtalk', 'dingtalk-alice', '/users/profile?tab=keys');
    expect(path1.answer.headers.get('location')).toBe('/users/profile?tab=keys');
    for (const next of [
      'https://evil.example.com/steal',
      '//evil.example.com/',
      '/\\evil.example.com',
      'javascript:alert(1)',
    ]) {
      const { answer } = await signInVia(new Client(s.url), 'dingtalk', 'dingtalk-alice', next);
      expect(answer.status).toBe(302);
      expect(answer.headers.get('location'), next).toBe('/users/settings');
    }
  });

  it('keeps an unbound account for binding: notBound page, pending bind, password sign-in binds it, next sign-in works', async () => {
    const c = new Client(s.url);
    const { answer } = await signInVia(c, 'dingtalk', 'ext-named');
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe(notBound('dingtalk'));
    expect(answer.headers.getSetCookie().some((h) => h.startsWith('account_session='))).toBe(false);
    const cookie = answer.headers.getSetCookie().find((h) => h.startsWith('account_oauth_bind='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\/(;|$)/);
    expect(cookie).toMatch(/Max-Age=600/);
    // The pending bind is this browser's only.
    const pending = await call(c, 'GET', PENDING);
    expect(pending.status).toBe(200);
    expect(pending.json).toEqual({ provider: 'dingtalk', open_id: 'ext-named', name: 'Erin External' });
    expect((await call(new Client(s.url), 'GET', PENDING)).status).toBe(404);
    expect((await me(c)).status).toBe(401);
    // The sign-in page brings it, so its first render shows the banner; another browser's page brings nothing.
    expect(await loginPageData(c)).toEqual({ pendingBind: pending.json });
    expect(await loginPageData(new Client(s.url))).toBeUndefined();

    const bound = await passwordBind(c, 'bob');
    expect(bound.status, bound.text).toBe(200);
    expect(c.cookies.has('account_oauth_bind')).toBe(false);
    const list = await call(c, 'GET', IDENTITIES);
    expect(list.json.results).toEqual([
      expect.objectContaining({ provider: 'dingtalk', credential: 'dingtalk', open_id: 'ext-named' }),
    ]);
    const pendingAfter = await call(c, 'GET', PENDING);
    expect(pendingAfter.status).toBe(404);
    expect(pendingAfter.json.code).toBe('PendingBindNotFound');
    expect(await loginPageData(c)).toBeUndefined();

    const again = await signInVia(new Client(s.url), 'dingtalk', 'ext-named');
    expect(again.answer.headers.get('location')).toBe('/users/settings');
  });

  it('binds a Lark account as feishu and replaces the user’s own earlier binding of that provider', async () => {
    await bindIdentity(s.ctx, { username: 'carol', provider: 'feishu', openId: 'lark-old' });
    const c = new Client(s.url);
    expect((await signInVia(c, 'lark', 'lark-carol')).answer.headers.get('location')).toBe(notBound('lark'));
    expect((await call(c, 'GET', PENDING)).json).toEqual({
      provider: 'lark',
      open_id: 'lark-carol',
      name: 'lark-carol',
    });
    expect((await passwordBind(c, 'carol')).status).toBe(200);
    const list = await call(c, 'GET', IDENTITIES);
    expect(list.json.results).toEqual([
      expect.objectContaining({ provider: 'feishu', credential: 'feishu', open_id: 'lark-carol', name: 'Feishu' }),
    ]);
    const next = await signInVia(new Client(s.url), 'lark', 'lark-carol');
    expect(next.answer.headers.get('location')).toBe('/users/settings');
    // The replaced account no longer signs carol in.
    const old = await signInVia(new Client(s.url), 'lark', 'lark-old');
    expect(old.answer.headers.get('location')).toBe(notBound('lark'));
  });

  it('refuses to bind an account someone else has bound meanwhile (409) and spends the ticket', async () => {
    const c = new Client(s.url);
    expect((await signInVia(c, 'wecom', 'wecom-contested')).answer.headers.get('location')).toBe(notBound('wecom'));
    await bindIdentity(s.ctx, { username: 'bob', provider: 'wecom', openId: 'wecom-contested' });
    const a = await passwordBind(c, 'dave');
    expect(a.status, a.text).toBe(409);
    expect(a.json.code).toBe('ThirdPartyAccountBoundToOther');
    // Refused before the session is made; the spent ticket's cookie goes.
    expect(a.headers.getSetCookie().some((h) => h.startsWith('account_session='))).toBe(false);
    expect(c.cookies.has('account_oauth_bind')).toBe(false);
    expect((await call(c, 'GET', PENDING)).status).toBe(404);
    const dave = new Client(s.url);
    await dave.login('dave', PASSWORD);
    expect((await call(dave, 'GET', IDENTITIES)).json.results).toEqual([]);
  });

  it('answers 404 PendingBindNotFound to a bind without a ticket, and forgets a pending bind on DELETE', async () => {
    const none = await passwordBind(new Client(s.url), 'dave');
    expect(none.status).toBe(404);
    expect(none.json.code).toBe('PendingBindNotFound');

    const c = new Client(s.url);
    await signInVia(c, 'dingtalk', 'ext-forget');
    expect((await call(c, 'GET', PENDING)).status).toBe(200);
    // A state change: X-Requested-With is required (no CSRF token: there is no session).
    expect((await call(c, 'DELETE', PENDING, { xhr: false })).status).toBe(403);
    const del = await call(c, 'DELETE', PENDING);
    expect(del.status).toBe(200);
    expect(del.json).toEqual({ success: true });
    expect(c.cookies.has('account_oauth_bind')).toBe(false);
    expect(
      await s.ctx.db.selectFrom('oauth_pending_binds').select('open_id').where('open_id', '=', 'ext-forget').execute(),
    ).toEqual([]);
  });

  it('lets a pending bind expire after ten minutes', async () => {
    const c = new Client(s.url);
    await signInVia(c, 'dingtalk', 'ext-late');
    s.clock.advance(10 * MINUTE + 1000);
    expect(await loginPageData(c)).toEqual({ pendingBind: null });
    expect((await call(c, 'GET', PENDING)).status).toBe(404);
    expect((await passwordBind(c, 'dave')).status).toBe(404);
  });

  it('sends a provider that is not enabled, unknown or without a readable secret to notSupported', async () => {
    await configure('wecom', { disable: true });
    try {
      const a = await navigate(new Client(s.url), '/login/oauth/wecom');
      expect(a.status).toBe(302);
      expect(a.headers.get('location')).toBe(loginErrorPath('notSupported', 'wecom'));
    } finally {
      await configure('wecom');
    }
    const unknown = await navigate(new Client(s.url), '/login/oauth/github?next=%2F');
    expect(unknown.headers.get('location')).toBe(loginErrorPath('notSupported'));
    expect(
      (await navigate(new Client(s.url), '/login/oauth/github/callback?code=x&state=y')).headers.get('location'),
    ).toBe(loginErrorPath('notSupported'));

    process.env.OAUTH_SIGN_IN_TEST_SECRET = CLIENT_SECRET;
    await configure('wecom', { clientSecretFile: undefined, clientSecretEnv: 'OAUTH_SIGN_IN_TEST_SECRET' });
    delete process.env.OAUTH_SIGN_IN_TEST_SECRET;
    try {
      const a = await navigate(new Client(s.url), '/login/oauth/wecom');
      expect(a.headers.get('location')).toBe(loginErrorPath('notSupported', 'wecom'));
    } finally {
      await configure('wecom');
    }
  });

  it('sends an answer without the configured id field to noAccountInfo', async () => {
    await configure('lark', { idField: 'data.employee_id' });
    try {
      const { answer } = await signInVia(new Client(s.url), 'lark', 'ext-no-emp');
      expect(answer.headers.get('location')).toBe(loginErrorPath('noAccountInfo', 'lark'));
      expect(answer.headers.getSetCookie().some((h) => /^account_(session|oauth_bind)=/.test(h))).toBe(false);
    } finally {
      await configure('lark');
    }
  });

  it('refuses a numeric id beyond the safe integers on every provider (noAccountInfo); safe integers and strings are exact', async () => {
    // A user-info endpoint answering a raw JSON text (the real provider's token endpoint still issues the token).
    let body = '';
    const userinfo = http.createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(body),
    );
    await new Promise<void>((r) => userinfo.listen(0, '127.0.0.1', r));
    const userinfoUrl = `http://127.0.0.1:${(userinfo.address() as AddressInfo).port}/userinfo`;
    await s.seed({ users: { erin: { password: PASSWORD }, frank: { password: PASSWORD } } });
    try {
      for (const provider of OAUTH_PROVIDERS) {
        // Lark nests the account under `data`, as its own user info does.
        const idField = provider === 'lark' ? 'data.open_id' : 'sub';
        const answer = (id: string) => (provider === 'lark' ? `{"code":0,"data":{"open_id":${id}}}` : `{"sub":${id}}`);
        await configure(provider, { userinfoUrl, idField, nameField: '' });
        const credential = identityProviderOf(provider);
        // Erin is bound under 2^53, the number 2^53 + 1 rounds to; Frank under 2^53 + 1 written as a string.
        await bindIdentity(s.ctx, { username: 'erin', provider: credential, openId: '9007199254740992' });
        await bindIdentity(s.ctx, { username: 'frank', provider: credential, openId: '9007199254740993' });
        for (const unsafe of ['9007199254740993', '-9007199254740993', '9.007199254740993e15', '90071992547409920']) {
          body = answer(unsafe);
          const c = new Client(s.url);
          const { answer: a } = await signInVia(c, provider, 'anyone');
          expect(a.headers.get('location'), `${provider} ${unsafe}`).toBe(loginErrorPath('noAccountInfo', provider));
          expect(a.headers.getSetCookie().some((h) => /^account_(session|oauth_bind)=/.test(h))).toBe(false);
          expect((await me(c)).status).toBe(401);
        }
        // The same id as a string signs Frank in, never Erin.
        body = answer('"9007199254740993"');
        const asString = new Client(s.url);
        expect((await signInVia(asString, provider, 'anyone')).answer.headers.get('location')).toBe('/users/settings');
        expect((await me(asString)).json.username).toBe('frank');
        // The largest safe integer is still an id: unbound, it waits for a bind under its exact digits.
        body = answer('9007199254740991');
        const safe = new Client(s.url);
        expect((await signInVia(safe, provider, 'anyone')).answer.headers.get('location')).toBe(notBound(provider));
        expect((await call(safe, 'GET', PENDING)).json.open_id).toBe('9007199254740991');
      }
      expect(s.logs.some((l) => l.includes('number but not a safe integer'))).toBe(true);
    } finally {
      for (const p of OAUTH_PROVIDERS) await configure(p);
      userinfo.closeAllConnections();
      await new Promise<void>((r) => userinfo.close(() => r()));
    }
  });

  it('refuses a callback from another browser, with a tampered or missing state, or after ten minutes', async () => {
    const a = new Client(s.url);
    const callback = await atProvider(await start(a, 'dingtalk'), 'dingtalk-alice');
    // Another browser (its own nonce, or none) brings A's callback: refused, nothing set.
    const b = new Client(s.url);
    await start(b, 'dingtalk');
    for (const other of [b, new Client(s.url)]) {
      const r = await navigate(other, callback);
      expect(r.headers.get('location')).toBe(loginFailed('dingtalk'));
      expect(r.headers.getSetCookie().some((h) => h.startsWith('account_session='))).toBe(false);
      expect((await me(other)).status).toBe(401);
    }
    // A tampered state fails too; the refusals did not spend A's sign-in.
    const tampered = new URL(callback);
    const state = tampered.searchParams.get('state')!;
    tampered.searchParams.set('state', `${state.slice(0, -1)}${state.endsWith('A') ? 'B' : 'A'}`);
    expect((await navigate(a, tampered.href)).headers.get('location')).toBe(loginFailed('dingtalk'));
    const noState = new URL(callback);
    noState.searchParams.delete('state');
    expect((await navigate(a, noState.href)).headers.get('location')).toBe(loginFailed('dingtalk'));
    // The same state on another provider's callback is not it either.
    expect((await navigate(a, callback.replace('/oauth/dingtalk/', '/oauth/lark/'))).headers.get('location')).toBe(
      loginFailed('lark'),
    );
    const ok = await navigate(a, callback);
    expect(ok.headers.get('location')).toBe('/users/settings');

    const late = new Client(s.url);
    const lateCallback = await atProvider(await start(late, 'dingtalk'), 'dingtalk-alice');
    s.clock.advance(10 * MINUTE + 1000);
    expect((await navigate(late, lateCallback)).headers.get('location')).toBe(loginFailed('dingtalk'));
  });

  it('refuses a replayed callback URL', async () => {
    const c = new Client(s.url);
    const { answer, callback } = await signInVia(c, 'dingtalk', 'dingtalk-alice');
    expect(answer.headers.get('location')).toBe('/users/settings');
    const session = c.cookies.get('account_session');
    const replay = await navigate(c, callback);
    expect(replay.headers.get('location')).toBe(loginFailed('dingtalk'));
    expect(replay.headers.getSetCookie().some((h) => h.startsWith('account_session='))).toBe(false);
    expect(c.cookies.get('account_session')).toBe(session);
  });

  it('sends a provider error (the user cancelled) to loginFailed', async () => {
    const c = new Client(s.url);
    const callback = await atProvider(await start(c, 'dingtalk'), 'dingtalk-alice', { deny: true });
    expect(new URL(callback).searchParams.get('error')).toBe('access_denied');
    const a = await navigate(c, callback);
    expect(a.headers.get('location')).toBe(loginFailed('dingtalk'));
    expect((await me(c)).status).toBe(401);
  });

  it('fails quickly when the token endpoint is down, and within the timeout when it hangs', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    await configure('dingtalk', { tokenUrl: `http://127.0.0.1:${port}/token` });
    try {
      const t0 = Date.now();
      const { answer } = await signInVia(new Client(s.url), 'dingtalk', 'dingtalk-alice');
      expect(answer.headers.get('location')).toBe(loginFailed('dingtalk'));
      expect(Date.now() - t0).toBeLessThan(3000);
    } finally {
      await configure('dingtalk');
    }

    const sockets = new Set<import('node:net').Socket>();
    const hanging = http.createServer(() => {}); // accepts, never answers
    hanging.on('connection', (sock) => sockets.add(sock));
    await new Promise<void>((r) => hanging.listen(0, '127.0.0.1', r));
    await configure('dingtalk', { tokenUrl: `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/token` });
    try {
      const c = new Client(s.url);
      const callback = await atProvider(await start(c, 'dingtalk'), 'dingtalk-alice');
      const t0 = Date.now();
      const a = await navigate(c, callback);
      const took = Date.now() - t0;
      expect(a.headers.get('location')).toBe(loginFailed('dingtalk'));
      expect(took).toBeGreaterThanOrEqual(OAUTH_HTTP_TIMEOUT_MS - 200);
      expect(took).toBeLessThan(OAUTH_HTTP_TIMEOUT_MS + 3000);
    } finally {
      await configure('dingtalk');
      for (const sock of sockets) sock.destroy();
      await new Promise<void>((r) => hanging.close(() => r()));
    }
  }, 20_000);

  it('sends a refused code exchange (wrong client secret) to loginFailed', async () => {
    const wrong = path.join(s.dataDir, 'wrong-secret');
    fs.writeFileSync(wrong, 'not-the-secret');
    await configure('dingtalk', { clientSecretFile: wrong });
    try {
      op.errors.length = 0;
      const { answer } = await signInVia(new Client(s.url), 'dingtalk', 'dingtalk-alice');
      expect(answer.headers.get('location')).toBe(loginFailed('dingtalk'));
      expect(op.errors.map((e) => e.error)).toContain('invalid_client');
    } finally {
      await configure('dingtalk');
    }
  });

  describe('re-authentication of a third-party account (a fresh round trip)', () => {
    const REAUTH = REAUTH_PATHS.my;
    const STALE_MS = DEFAULT_REAUTH_WINDOW_MINUTES * MINUTE + 1000;
    const bindEmail = (c: Client) =>
      call(c, 'POST', '/users/ajax/v1/my/emails:bind', { body: { email: 'tpx@example.org' } });
    const reauthPath = (provider: OAuthProvider, next?: string) =>
      `/users/reauth/oauth/${provider}${next ? `?next=${encodeURIComponent(next)}` : ''}`;
    /** A browser signed in through Lark as the password-less account `tpx` (bound to lark-tpx), its proof stale. */
    async function staleTpx(): Promise<Client> {
      if (!s.users.tpx) {
        await s.seed({ users: { tpx: {} } });
        await bindIdentity(s.ctx, { username: 'tpx', provider: 'feishu', openId: 'lark-tpx' });
      }
      const c = new Client(s.url);
      expect((await signInVia(c, 'lark', 'lark-tpx')).answer.headers.get('location')).toBe('/users/settings');
      c.csrf = await csrfOf(c);
      s.clock.advance(STALE_MS);
      return c;
    }
    /** The CSRF token of the browser's session (the page config gives it to the web app). */
    async function csrfOf(c: Client): Promise<string> {
      const row = await s.ctx.db
        .selectFrom('sessions')
        .select('csrf_token')
        .where('id_hash', '=', sha256(c.cookies.get('account_session')!))
        .executeTakeFirstOrThrow();
      return row.csrf_token;
    }

    it('asks the provider to sign its person in afresh; the bound account proves, the session rotates, next is kept', async () => {
      const c = await staleTpx();
      const state = await call(c, 'GET', REAUTH, { headers: { 'accept-language': 'en-US' } });
      expect(state.json).toMatchObject({
        method: 'provider',
        provider: { id: 'lark', name: 'Lark' },
        fresh_until: null,
      });
      expect((await bindEmail(c)).json.code).toBe('ReauthRequired');

      const start = await navigate(c, reauthPath('lark', '/users/settings/bindings?x=1'));
      expect(start.status).toBe(302);
      const authorize = new URL(start.headers.get('location')!);
      expect(`${authorize.origin}${authorize.pathname}`).toBe(op.authorizeUrl);
      expect(authorize.searchParams.get('prompt')).toBe('login');
      expect(authorize.searchParams.get('max_age')).toBe('0');
      // The registered callback, as for a sign-in.
      expect(authorize.searchParams.get('redirect_uri')).toBe(`${s.url}/login/oauth/lark/callback`);

      const old = c.cookies.get('account_session')!;
      const oldCsrf = c.csrf!;
      const back = await navigate(c, await atProvider(authorize.href, 'lark-tpx'));
      expect([back.status, back.headers.get('location')]).toEqual([302, '/users/settings/bindings?x=1']);
      expect(c.cookies.get('account_session')).not.toBe(old);
      const stale = new Client(s.url);
      stale.cookies.set('account_session', old);
      expect((await me(stale)).status).toBe(401);
      // The new cookie keeps the session's CSRF token (the page and its other tabs go on with it): the change goes through.
      expect(await csrfOf(c)).toBe(oldCsrf);
      expect((await call(c, 'GET', REAUTH)).json.fresh_until).not.toBeNull();
      const bound = await bindEmail(c);
      expect(bound.status, bound.text).toBe(200);
      expect((await me(c)).json.username).toBe('tpx');
    });

    it('refuses a round trip with another provider account (bound to someone else, or to nobody)', async () => {
      const c = await staleTpx();
      const cookie = c.cookies.get('account_session')!;
      for (const login of ['lark-alice', 'lark-nobody']) {
        const start = await navigate(c, reauthPath('lark', '/users/settings'));
        const back = await navigate(c, await atProvider(start.headers.get('location')!, login));
        expect([login, back.status, back.headers.get('location')]).toEqual([login, 302, loginFailed('lark')]);
        // Neither a proof nor a sign-in nor a pending bind: the same session, still without a proof.
        expect(c.cookies.get('account_session')).toBe(cookie);
        expect(c.cookies.has('account_oauth_bind')).toBe(false);
        expect((await me(c)).json.username).toBe('tpx');
        expect((await bindEmail(c)).json.code).toBe('ReauthRequired');
      }
      // A sign-in's state cannot complete as a re-authentication either: it signs in (a new session) as before.
      const signIn = await signInVia(c, 'lark', 'lark-tpx', '/users/settings');
      expect(signIn.answer.headers.get('location')).toBe('/users/settings');
      expect(c.cookies.get('account_session')).not.toBe(cookie);
    });

    it('needs a session, and returns only to a local path', async () => {
      const none = await navigate(new Client(s.url), reauthPath('lark', '/users/settings'));
      expect([none.status, none.headers.get('location')]).toEqual([302, s.ctx.edition.paths.relogin]);
      for (const next of ['https://evil.example.com/steal', '//evil.example.com/', '/\\evil.example.com']) {
        const c = await staleTpx();
        const start = await navigate(c, reauthPath('lark', next));
        const back = await navigate(c, await atProvider(start.headers.get('location')!, 'lark-tpx'));
        expect([next, back.headers.get('location')]).toEqual([next, '/users/settings']);
      }
    });
  });

  it('never puts the client secret, a code, a session or a ticket in an answer or a log line', () => {
    const all = answers.join('\n');
    expect(all).not.toContain(CLIENT_SECRET);
    for (const secret of secrets) if (secret.length >= 20) expect(all).not.toContain(secret);
    expectNoSecrets(s.logs, [...secrets]);
    // The failures were logged with their reason, for the operator.
    expect(s.logs.some((l) => l.includes('third-party sign-in failed') && l.includes('token endpoint'))).toBe(true);
  });
});
