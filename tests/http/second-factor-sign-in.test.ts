// The sign-in's second step (issue 41, item 4) and the passkey sign-in (item 2), over real HTTP: an account with a
// second factor gets no session before it is answered, on every way in (password, directory password, third-party
// sign-in); the answers count in the sign-in lockout (5 wrong lock for an hour, parallel guesses evaluate at most 5,
// re-entering the password does not reset the count); TOTP codes are single use within their drift window; a
// recovery code works once; tampered WebAuthn assertions are refused; nothing secret reaches a log or an answer.
import { describe, expect, it } from 'vitest';
import { Client, useTestServer, type Answer } from '../kit/server';
import { clientFrom, freshAddress, solveSlider } from '../kit/captcha';
import { expectNoSecrets } from '../kit/secrets';
import { SoftAuthenticator, type AssertionTamper } from '../kit/soft-authenticator';
import { SESSION_COOKIE } from '../../server/auth/sessions';
import { relyingParty, totpCode } from '../../server/auth/second-factor/index';
import { SECOND_STEP_PATHS } from '../../plugins/login/limits';
import { STEP_COOKIE } from '../../plugins/login/server/second-step';
import type { AuthenticationOptions, FactorProof } from '../../schemas/second-factor';

const PASSWORD = 'Secret#123';
const WRONG = 'Wrong#Pass-9';
const LOGIN = '/users/ajax/login';
const ME = '/individual/proxy/me';
const STEP = 30_000;
const MINUTE = 60_000;

/** A second-factor account as a test holds it: its app's secret, its recovery codes and its authenticator. */
interface TwoFactorAccount {
  id: string;
  name: string;
  secret: string;
  codes: string[];
  auth: SoftAuthenticator;
  credentialId: string | null;
}

describe('the second step of a sign-in, and the passkey sign-in', () => {
  const s = useTestServer({ env: { TRUST_PROXY: 'loopback' }, seed: { users: { plain: { password: PASSWORD } } } });
  /** Every secret the tests handled (codes, secrets, tickets, challenges, cookies): none may reach a log line. */
  const secrets = new Set<string>([PASSWORD]);
  /** Every answer of the service, to look for secrets in (options answers excepted: they carry the challenge). */
  const answers: string[] = [];

  const now = () => s.clock.now().getTime();
  const rp = () => relyingParty(s.ctx.config);
  let accounts = 0;

  /** A new account with the password, and (unless told otherwise) an authenticator app and recovery codes. */
  async function twoFactor(opts: { totp?: boolean; passkey?: boolean } = {}): Promise<TwoFactorAccount> {
    const name = `tf${++accounts}`;
    const made = await s.seed({ users: { [name]: { password: PASSWORD } } });
    const id = made.users[name].id;
    const user = { id, username: name, name: '' };
    const account: TwoFactorAccount = {
      id,
      name,
      secret: '',
      codes: [],
      auth: new SoftAuthenticator(rp()),
      credentialId: null,
    };
    if (opts.totp ?? true) {
      const enrolment = await s.ctx.secondFactors.startTotp(user);
      expect(await s.ctx.secondFactors.confirmTotp(id, totpCode(enrolment.secret, now()))).toBe(true);
      account.secret = enrolment.secret;
      secrets.add(enrolment.secret);
      // The confirming code's step is spent: the sign-in's code comes from the next one.
      s.clock.advance(STEP);
    }
    if (opts.passkey) {
      const options = await s.ctx.secondFactors.registrationOptions(user);
      const passkey = await s.ctx.secondFactors.register(id, account.auth.register(options), 'Laptop');
      expect(passkey).not.toBeNull();
      account.credentialId = account.auth.credentials[0].id;
    }
    account.codes = await s.ctx.secondFactors.newRecoveryCodes(id);
    for (const c of account.codes) secrets.add(c);
    return account;
  }

  /** A call whose answer joins the leak check, and whose cookies join the secrets. */
  async function call(c: Client, method: string, p: string, opts: Parameters<Client['req']>[2] = {}): Promise<Answer> {
    const a = await c.req(method, p, opts);
    answers.push(a.text, a.headers.get('location') ?? '');
    for (const value of c.cookies.values()) secrets.add(value);
    return a;
  }

  /** The first step, from a browser of its own address (unless given). */
  async function signIn(name: string, { client = clientFrom(s.url), pass }: { client?: Client; pass?: string } = {}) {
    const a = await call(client, 'POST', LOGIN, {
      body: { username: name, password: PASSWORD, ...(pass ? { captcha_pass: pass } : {}) },
    });
    return { a, client };
  }

  /** The first step, expected to answer the second step. */
  async function stepOf(name: string, client?: Client): Promise<Client> {
    const { a, client: c } = await signIn(name, { client });
    expect(a.status, a.text).toBe(200);
    expect(a.json.second_factor).toBeDefined();
    return c;
  }

  /** Answers the second step; a 200 keeps the new session's CSRF token. */
  async function answer(c: Client, proof: FactorProof, headers?: Record<string, string>): Promise<Answer> {
    const a = await call(c, 'POST', SECOND_STEP_PATHS.secondFactor, { body: proof, headers });
    if (a.status === 200) c.csrf = a.json.csrf_token;
    return a;
  }

  const totp = (account: TwoFactorAccount, at = now()): FactorProof => {
    const code = totpCode(account.secret, at);
    secrets.add(code);
    return { method: 'totp', code };
  };

  /** A six-digit code that is none of the account's codes within the drift window (so surely wrong). */
  const wrongCode = (account: TwoFactorAccount): FactorProof => {
    const near = [-STEP, 0, STEP].map((d) => totpCode(account.secret, now() + d));
    let n = 123456;
    while (near.includes(String(n))) n++;
    return { method: 'totp', code: String(n) };
  };

  /** WebAuthn options from an options call (its challenge joins the secrets, but the answer is not leak-checked). */
  async function options(c: Client, path: string): Promise<AuthenticationOptions> {
    const a = await c.req('POST', path, { body: {} });
    expect(a.status, a.text).toBe(200);
    secrets.add(a.json.challenge);
    return a.json as AuthenticationOptions;
  }

  /** The account's history entries of one kind (the security slice writes them from the account events). */
  const history = async (userId: string, kind: string) =>
    (
      await s.ctx.db
        .selectFrom('account_history')
        .select(['kind', 'detail'])
        .where('user_id', '=', userId)
        .where('kind', '=', kind)
        .execute()
    ).map((r) => JSON.parse(r.detail) as Record<string, unknown>);

  const isLocked = async (name: string) =>
    (await clientFrom(s.url).req('GET', `/users/ajax/users/${name}/check`)).json.locked as boolean;

  it('answers the step instead of a session after the right password: no session cookie, /me 401, the step cookie httpOnly', async () => {
    const account = await twoFactor({ passkey: true });
    const { a, client } = await signIn(account.name);
    expect(a.status, a.text).toBe(200);
    expect(a.json).toEqual({
      second_factor: {
        methods: expect.arrayContaining(['totp', 'webauthn', 'recovery']),
        expires_at: now() + 10 * MINUTE,
      },
    });
    expect(a.json.user).toBeUndefined();
    expect(a.json.csrf_token).toBeUndefined();
    const cookies = a.headers.getSetCookie();
    expect(cookies.some((h) => h.startsWith(`${SESSION_COOKIE}=`))).toBe(false);
    const step = cookies.find((h) => h.startsWith(`${STEP_COOKIE}=`))!;
    expect(step).toMatch(/HttpOnly/i);
    expect(step).toMatch(/SameSite=Lax/i);
    expect(step).toMatch(/Path=\/(;|$)/);
    expect(step).toMatch(/Max-Age=600/);
    // Only the ticket's digest is stored; no session row exists for the account.
    const ticket = client.cookies.get(STEP_COOKIE)!;
    const rows = await s.ctx.db.selectFrom('sign_in_steps').selectAll().where('user_id', '=', account.id).execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(ticket);
    expect(rows[0]).toMatchObject({ method: 'password', lock: 'unmarked' });
    const sessions = await s.ctx.db
      .selectFrom('sessions')
      .select('id_hash')
      .where('user_id', '=', account.id)
      .execute();
    expect(sessions).toEqual([]);
    expect((await call(client, 'GET', ME)).status).toBe(401);
    // Nothing signed in yet: the history says nothing of a success, the owner no new browser.
    expect(await history(account.id, 'sign-in.succeeded')).toEqual([]);

    const done = await answer(client, totp(account));
    expect(done.status, done.text).toBe(200);
    expect(done.json).toMatchObject({ user: { username: account.name }, must_change_password: false });
    expect(done.headers.getSetCookie().some((h) => h.startsWith(`${SESSION_COOKIE}=`))).toBe(true);
    expect(client.cookies.has(STEP_COOKIE)).toBe(false);
    expect((await call(client, 'GET', ME)).json.username).toBe(account.name);
    // The session is the first step's: its method, and the browser got the account's device mark.
    const listed = await call(client, 'GET', '/users/ajax/v1/my/sessions');
    expect(listed.json.sessions.find((x: { current: boolean }) => x.current)).toMatchObject({ method: 'password' });
    expect(client.cookies.get('account_device')?.split('.')[0]).toBe(account.id);
    expect(await history(account.id, 'sign-in.succeeded')).toEqual([{ method: 'password', factor: 'totp' }]);
    // Single use: the waiting sign-in is spent.
    const again = await answer(
      clientFrom(s.url, freshAddress(), { cookie: `${STEP_COOKIE}=${ticket}` }),
      totp(account),
    );
    expect(again.status).toBe(400);
    expect(again.json.code).toBe('SecondFactorStepExpired');
    expect(await s.ctx.db.selectFrom('sign_in_steps').selectAll().where('user_id', '=', account.id).execute()).toEqual(
      [],
    );
  });

  it('an account without a second factor signs in in one step, as before', async () => {
    const c = new Client(s.url);
    const a = await c.login('plain', PASSWORD);
    expect(a.status).toBe(200);
    expect(a.json.csrf_token).toEqual(expect.any(String));
    expect(c.cookies.has(STEP_COOKIE)).toBe(false);
  });

  it('the wait ends after 10 minutes: the step answers SecondFactorStepExpired and nothing is judged', async () => {
    const account = await twoFactor();
    const c = await stepOf(account.name);
    s.clock.advance(10 * MINUTE);
    const late = await answer(c, totp(account), { 'accept-language': 'en-US' });
    expect(late.status).toBe(400);
    expect(late.json.code).toBe('SecondFactorStepExpired');
    expect(late.json.message).toBe('The sign-in has expired. Please sign in again.');
    const zh = await answer(await stepOf(account.name), wrongCode(account), { 'accept-language': 'zh-CN' });
    expect(zh.json.message).toBe('验证码或通行密钥验证未通过，请重试。');
    // Without any waiting sign-in in the browser, nothing is judged either.
    const none = await answer(clientFrom(s.url), totp(account));
    expect(none.status).toBe(400);
    expect(none.json.code).toBe('SecondFactorStepExpired');
    expect(await history(account.id, 'sign-in.failed')).toHaveLength(1);
  });

  it('refuses a TOTP code replayed in its step, and codes outside the drift window', async () => {
    const account = await twoFactor();
    const first = await stepOf(account.name);
    const code = totp(account);
    expect((await answer(first, code)).status).toBe(200);
    // The same code again, in the same step, from another browser that knows the password: refused.
    const replay = await answer(await stepOf(account.name), code);
    expect(replay.status).toBe(401);
    expect(replay.json.code).toBe('SecondFactorWrong');

    s.clock.advance(STEP);
    const c = await stepOf(account.name);
    for (const off of [-2 * STEP, 2 * STEP]) {
      const outside = await answer(c, totp(account, now() + off));
      expect(outside.status, `${off / 1000} s`).toBe(401);
    }
    // One step of drift is accepted.
    expect((await answer(c, totp(account, now() + STEP))).status).toBe(200);
    await s.ctx.lockout.unlock(account.name);
  });

  it('five wrong codes lock the account for an hour (passwords too); the owner hears of it once', async () => {
    const account = await twoFactor();
    const c = await stepOf(account.name);
    for (let i = 1; i <= 4; i++) {
      const a = await answer(c, wrongCode(account));
      expect(a.status, `answer ${i}`).toBe(401);
      expect(a.json.code).toBe('SecondFactorWrong');
    }
    const fifth = await answer(c, wrongCode(account));
    expect(fifth.status).toBe(423);
    expect(fifth.json.code).toBe('AccountLocked');
    expect(await isLocked(account.name)).toBe(true);
    // The waiting sign-in ended with the lock; the right code is no use now, nor the right password.
    expect((await answer(c, totp(account))).status).toBe(400);
    expect((await signIn(account.name)).a.status).toBe(423);
    expect(await history(account.id, 'account.locked')).toHaveLength(1);
    expect(
      (await history(account.id, 'sign-in.failed')).filter((d) => d.reason === 'wrong-second-factor'),
    ).toHaveLength(5);
    // An hour later it starts afresh.
    s.clock.advance(60 * MINUTE + 1);
    expect((await answer(await stepOf(account.name), totp(account))).status).toBe(200);
  });

  it('100 parallel guesses on one waiting sign-in evaluate at most 5 (from 100 addresses)', async () => {
    const account = await twoFactor();
    const c = await stepOf(account.name);
    const guesses = await Promise.all(
      Array.from({ length: 100 }, () => answer(c, wrongCode(account), { 'x-forwarded-for': freshAddress() })),
    );
    const statuses = guesses.map((g) => g.status);
    const count = (n: number) => statuses.filter((x) => x === n).length;
    // 4 wrong, 1 locking; the rest refused unevaluated (locked, or the waiting sign-in already ended).
    expect(count(401)).toBe(4);
    expect(count(423) + count(400)).toBe(96);
    const evaluated = (await history(account.id, 'sign-in.failed')).filter((d) => d.reason === 'wrong-second-factor');
    expect(evaluated).toHaveLength(5);
    expect(await history(account.id, 'account.locked')).toHaveLength(1);
    expect(await isLocked(account.name)).toBe(true);
    console.log(
      `second step, 100 parallel wrong codes: ${evaluated.length} evaluated, ${count(401)} × 401, ` +
        `${count(423)} × 423, ${count(400)} × 400`,
    );
    await s.ctx.lockout.unlock(account.name);
  });

  it('re-entering the right password between guesses does not reset the count (the slider rules stay)', async () => {
    const account = await twoFactor();
    const browser = clientFrom(s.url);
    let c = await stepOf(account.name, browser);
    for (let i = 0; i < 2; i++) expect((await answer(c, wrongCode(account))).status).toBe(401);
    // Two failures: the next first step of the name needs the slider, as after two wrong passwords.
    const noPass = await signIn(account.name, { client: browser });
    expect(noPass.a.status).toBe(403);
    expect(noPass.a.json.code).toBe('CaptchaRequired');
    c = (await signIn(account.name, { client: browser, pass: await solveSlider(s.ctx, browser, account.name) })).client;
    for (let i = 0; i < 2; i++) expect((await answer(c, wrongCode(account))).status).toBe(401);
    // The right password again (with a slider pass) answers the step, but the count stays at 4 ...
    const again = await signIn(account.name, {
      client: browser,
      pass: await solveSlider(s.ctx, browser, account.name),
    });
    expect(again.a.status, again.a.text).toBe(200);
    expect(again.a.json.second_factor).toBeDefined();
    // ... so the next wrong code is the 5th and locks.
    const fifth = await answer(again.client, wrongCode(account));
    expect(fifth.status).toBe(423);
    expect(await isLocked(account.name)).toBe(true);
    // A wrong password counts in the same count: after 4 wrong codes, one wrong password locks as well.
    const other = await twoFactor();
    const o = await stepOf(other.name, browser);
    for (let i = 0; i < 4; i++) expect((await answer(o, wrongCode(other))).status).toBe(401);
    const wrongPassword = await call(browser, 'POST', LOGIN, {
      body: { username: other.name, password: WRONG, captcha_pass: await solveSlider(s.ctx, browser, other.name) },
    });
    expect(wrongPassword.status).toBe(423);
  });

  it('a recovery code works once (any case, dashes or spaces), and tells how many are left', async () => {
    const account = await twoFactor();
    const [code] = account.codes;
    const typed = code.toLowerCase().replace(/-/g, ' ');
    const first = await answer(await stepOf(account.name), { method: 'recovery', code: typed });
    expect(first.status, first.text).toBe(200);
    const again = await answer(await stepOf(account.name), { method: 'recovery', code });
    expect(again.status).toBe(401);
    expect(again.json.code).toBe('SecondFactorWrong');
    expect(await history(account.id, 'sign-in.succeeded')).toEqual([{ method: 'password', factor: 'recovery' }]);
    expect((await s.ctx.secondFactors.summary(account.id)).recoveryCodesLeft).toBe(account.codes.length - 1);
    await s.ctx.lockout.unlock(account.name);
  });

  it('a passkey answers the step with options for the waiting account only', async () => {
    const account = await twoFactor({ totp: false, passkey: true });
    const c = await stepOf(account.name);
    // No options without a waiting sign-in.
    const none = await clientFrom(s.url).req('POST', SECOND_STEP_PATHS.secondFactorOptions, { body: {} });
    expect(none.status).toBe(400);
    expect(none.json.code).toBe('SecondFactorStepExpired');
    const opts = await options(c, SECOND_STEP_PATHS.secondFactorOptions);
    expect(opts.allowCredentials?.map((x) => x.id)).toEqual([account.credentialId]);
    expect(opts.rpId).toBe(rp().rpID);
    const done = await answer(c, { method: 'webauthn', response: account.auth.assert(opts) });
    expect(done.status, done.text).toBe(200);
    expect(await history(account.id, 'sign-in.succeeded')).toEqual([{ method: 'password', factor: 'webauthn' }]);
  });

  describe('tampered WebAuthn assertions are refused', () => {
    const tampers: [string, (a: TwoFactorAccount, other: TwoFactorAccount) => AssertionTamper][] = [
      ['a wrong challenge', () => ({ challenge: Buffer.from('not the challenge').toString('base64url') })],
      ['a wrong origin', () => ({ origin: 'https://evil.example' })],
      ['a wrong rp id', () => ({ rpID: 'evil.example' })],
      ['a replayed counter', (a) => ({ counter: a.auth.credentials[0].counter })],
      ['id ≠ rawId', (_a, other) => ({ rawId: other.credentialId! })],
      ['a foreign credential', (_a, other) => ({ credentialId: other.credentialId! })],
      ['a bad signature', () => ({ badSignature: true })],
    ];

    it.each(tampers)('at the second step: %s', async (_what, tamper) => {
      const account = await twoFactor({ totp: false, passkey: true });
      const other = await twoFactor({ totp: false, passkey: true });
      // The foreign credential's authenticator is the account's own here (it signs with the other's key).
      account.auth.credentials.push(...other.auth.credentials);
      // A first right assertion, so the counter has moved.
      const warm = await stepOf(account.name);
      expect(
        (
          await answer(warm, {
            method: 'webauthn',
            response: account.auth.assert(await options(warm, SECOND_STEP_PATHS.secondFactorOptions)),
          })
        ).status,
      ).toBe(200);
      const c = await stepOf(account.name);
      const opts = await options(c, SECOND_STEP_PATHS.secondFactorOptions);
      const response = account.auth.assert(opts, tamper(account, other));
      const refused = await answer(c, { method: 'webauthn', response });
      expect(refused.status, refused.text).toBe(401);
      expect(refused.json.code).toBe('SecondFactorWrong');
      expect(c.cookies.has(SESSION_COOKIE)).toBe(false);
      // The untampered answer with fresh options still works: nothing but the tampered one was refused.
      const fine = await answer(c, {
        method: 'webauthn',
        response: account.auth.assert(await options(c, SECOND_STEP_PATHS.secondFactorOptions), {
          credentialId: account.credentialId!,
        }),
      });
      expect(fine.status, fine.text).toBe(200);
    });

    it.each(tampers)('at the passkey sign-in: %s', async (_what, tamper) => {
      const account = await twoFactor({ totp: false, passkey: true });
      const other = await twoFactor({ totp: false, passkey: true });
      account.auth.credentials.push(...other.auth.credentials);
      const warm = clientFrom(s.url);
      const first = await call(warm, 'POST', SECOND_STEP_PATHS.passkey, {
        body: { response: account.auth.assert(await options(warm, SECOND_STEP_PATHS.passkeyOptions)) },
      });
      expect(first.status, first.text).toBe(200);
      const c = clientFrom(s.url);
      const opts = await options(c, SECOND_STEP_PATHS.passkeyOptions);
      // Here a foreign credential answers for the account: the other's key with the account's user handle.
      const t = tamper(account, other);
      const handle = account.auth.credential(account.credentialId!).userHandle;
      const refused = await call(c, 'POST', SECOND_STEP_PATHS.passkey, {
        body: {
          response: account.auth.assert(opts, { credentialId: account.credentialId!, userHandle: handle, ...t }),
        },
      });
      expect(refused.status, refused.text).toBe(401);
      expect(refused.json.code).toBe('PasskeyNotRecognised');
      expect(c.cookies.has(SESSION_COOKIE)).toBe(false);
    });
  });

  it('signs in with a passkey alone (discoverable, no name, no password): session method passkey, history says so', async () => {
    const account = await twoFactor({ totp: false, passkey: true });
    const c = clientFrom(s.url);
    const opts = await options(c, SECOND_STEP_PATHS.passkeyOptions);
    expect(opts.allowCredentials ?? []).toEqual([]);
    const a = await call(c, 'POST', SECOND_STEP_PATHS.passkey, { body: { response: account.auth.assert(opts) } });
    expect(a.status, a.text).toBe(200);
    expect(a.json.user.username).toBe(account.name);
    c.csrf = a.json.csrf_token;
    expect((await call(c, 'GET', ME)).json.username).toBe(account.name);
    const listed = await call(c, 'GET', '/users/ajax/v1/my/sessions');
    expect(listed.json.sessions.find((x: { current: boolean }) => x.current)).toMatchObject({ method: 'passkey' });
    expect(await history(account.id, 'sign-in.succeeded')).toEqual([{ method: 'passkey' }]);
    // The same assertion again (its challenge is spent): refused.
    const replay = await call(clientFrom(s.url), 'POST', SECOND_STEP_PATHS.passkey, {
      body: { response: account.auth.assert(opts) },
    });
    expect(replay.status).toBe(401);
  });

  it('a held account stays refused at the passkey sign-in and at the first step', async () => {
    const account = await twoFactor({ passkey: true });
    await s.ctx.db.updateTable('users').set({ held_at: now() }).where('id', '=', account.id).execute();
    try {
      const c = clientFrom(s.url);
      const a = await call(c, 'POST', SECOND_STEP_PATHS.passkey, {
        body: { response: account.auth.assert(await options(c, SECOND_STEP_PATHS.passkeyOptions)) },
      });
      expect(a.status).toBe(423);
      expect(a.json.code).toBe('AccountHeld');
      expect(c.cookies.has(SESSION_COOKIE)).toBe(false);
      const first = await signIn(account.name);
      expect(first.a.status).toBe(423);
      expect(first.a.json.code).toBe('AccountHeld');
      expect(first.client.cookies.has(STEP_COOKIE)).toBe(false);
    } finally {
      await s.ctx.db.updateTable('users').set({ held_at: null }).where('id', '=', account.id).execute();
    }
  });

  it('refused passkey sign-ins count per address: the 11th within 15 minutes is refused unevaluated', async () => {
    const account = await twoFactor({ totp: false, passkey: true });
    const address = freshAddress();
    const c = clientFrom(s.url, address);
    for (let i = 0; i < 10; i++) {
      const opts = await options(c, SECOND_STEP_PATHS.passkeyOptions);
      const a = await call(c, 'POST', SECOND_STEP_PATHS.passkey, {
        body: { response: account.auth.assert(opts, { badSignature: true }) },
      });
      expect(a.status).toBe(401);
    }
    const opts = await options(c, SECOND_STEP_PATHS.passkeyOptions);
    const right = account.auth.assert(opts);
    const blocked = await call(c, 'POST', SECOND_STEP_PATHS.passkey, { body: { response: right } });
    expect(blocked.status).toBe(429);
    // Another address is not affected.
    const elsewhere = clientFrom(s.url);
    const ok = await call(elsewhere, 'POST', SECOND_STEP_PATHS.passkey, {
      body: { response: account.auth.assert(await options(elsewhere, SECOND_STEP_PATHS.passkeyOptions)) },
    });
    expect(ok.status, ok.text).toBe(200);
    s.clock.advance(15 * MINUTE);
  });

  it('the step needs X-Requested-With, and its cookie alone is all that names it', async () => {
    const account = await twoFactor();
    const c = await stepOf(account.name);
    const noXhr = await c.req('POST', SECOND_STEP_PATHS.secondFactor, { body: totp(account), xhr: false });
    expect(noXhr.status).toBe(403);
    const body = { ...totp(account), ticket: c.cookies.get(STEP_COOKIE) };
    expect((await c.req('POST', SECOND_STEP_PATHS.secondFactor, { body })).status).toBe(400);
    expect((await answer(c, totp(account))).status).toBe(200);
  });

  it('writes no secret, code or challenge to the log, and answers none beyond the options', () => {
    expectNoSecrets(s.logs, [...secrets]);
    // A code is a token of its own: not part of a longer number (timestamps hold any 6 digits).
    const inAnswer = (x: string) =>
      /^[0-9]+$/.test(x)
        ? answers.some((a) => new RegExp(`(?<![0-9.])${x}(?![0-9])`).test(a))
        : answers.some((a) => a.includes(x));
    const leaks = [...secrets].filter((x) => x.length >= 6 && inAnswer(x));
    // Cookies come back as Set-Cookie headers only, never in a body or a Location.
    expect(leaks).toEqual([]);
  });
});
