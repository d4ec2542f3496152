import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, useTestServer, withoutRequestId } from '../kit/server';
import { startSmtpSink, type SinkMail, type SmtpSink } from '../kit/smtp';
import { clientFrom, solveSlider, solveSliders } from '../kit/captcha';

const MINUTE = 60_000;
const OLD = 'Secret#123';
const NEW = 'Fresh#2468';
const EN = { 'accept-language': 'en-US' };
const ZH = { 'accept-language': 'zh-CN' };

const u = (name: string) => `/users/ajax/users/${encodeURIComponent(name)}`;

/** Every secret the tests handled (passes, flow ids, codes, tickets, passwords): none may reach a log line. */
const secrets = new Set<string>([OLD, NEW]);
/** Every mailed code: none may appear in an answer either. */
const codes = new Set<string>();
/** Every answer of a recovery call, to look for codes in. */
const answers: string[] = [];

/** A code as a token of its own: not part of a longer number (timestamps hold any 6 digits). */
const codeIn = (code: string, text: string) => new RegExp(`(?<![0-9.])${code}(?![0-9])`).test(text);

describe('password recovery', () => {
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(() => sink.close());
  const s = useTestServer(() => ({
    env: { SMTP_URL: sink.url, TRUST_PROXY: 'loopback' },
    seed: {
      users: {
        alice: { password: OLD, email: 'alice@example.com' },
        bob: { password: OLD },
        carol: { password: OLD, email: 'carol@example.com' },
      },
    },
  }));

  /** Seeds a user with a verified e-mail `<name>@example.com` and the old password. */
  async function user(name: string, language: string | null = null): Promise<string> {
    const made = await s.seed({ users: { [name]: { password: OLD, email: `${name}@example.com` } } });
    if (language) await s.ctx.db.updateTable('users').set({ language }).where('id', '=', made.users[name].id).execute();
    return `${name}@example.com`;
  }

  /** A recovery call, its answer kept for the leak check. */
  async function call(c: Client, method: string, p: string, body?: unknown, headers?: Record<string, string>) {
    const a = await c.req(method, p, { body, headers });
    answers.push(a.text);
    return a;
  }

  async function pass(c: Client, name: string): Promise<string> {
    const p = await solveSlider(s.ctx, c, name);
    secrets.add(p);
    return p;
  }

  /** Solves a slider and opens a recovery: the flow id. */
  async function retrieve(c: Client, name: string): Promise<string> {
    const a = await call(c, 'POST', `${u(name)}/password:retrieve`, { captcha_pass: await pass(c, name) });
    expect(a.status, a.text).toBe(200);
    secrets.add(a.json.flow);
    return a.json.flow;
  }

  const sendCode = (c: Client, name: string, flow: string) => call(c, 'POST', `${u(name)}/emailCaptcha`, { flow });

  /** The first mail to `to` received after the first `since` mails (it is in by the time the call answered). */
  async function mailTo(to: string, since: number): Promise<SinkMail> {
    for (let i = 0; i < 100; i++) {
      const mail = sink.mails.slice(since).find((m) => m.to.includes(to));
      if (mail) return mail;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`no mail to ${to}`);
  }

  const mailsTo = (to: string, since = 0) => sink.mails.slice(since).filter((m) => m.to.includes(to));

  /** Asks for a code and reads it from the mail. */
  async function mailedCode(c: Client, name: string, flow: string, to: string): Promise<string> {
    const since = sink.mails.length;
    const a = await sendCode(c, name, flow);
    expect(a.status, a.text).toBe(200);
    const mail = await mailTo(to, since);
    const code = /(?<![0-9])([0-9]{6})(?![0-9])/.exec(mail.text)?.[1];
    if (!code) throw new Error(`no code in mail:\n${mail.text}`);
    codes.add(code);
    secrets.add(code);
    return code;
  }

  const verify = (c: Client, name: string, flow: string, code: string) =>
    call(c, 'POST', `${u(name)}/emailCaptcha:verify`, { flow, code });

  /** Verifies a right code: the ticket. */
  async function ticketFor(c: Client, name: string, flow: string, code: string): Promise<string> {
    const a = await verify(c, name, flow, code);
    expect(a.status, a.text).toBe(200);
    secrets.add(a.json.ticket);
    return a.json.ticket;
  }

  const reset = (c: Client, name: string, ticket: string, password = NEW) => {
    secrets.add(password);
    return call(c, 'PUT', `${u(name)}/password:reset`, { ticket, new_password: password });
  };

  /** Slider → flow → mailed code → ticket, for `name` from a fresh address. */
  async function upToTicket(name: string, to = `${name}@example.com`, c = clientFrom(s.url, undefined, EN)) {
    const flow = await retrieve(c, name);
    const code = await mailedCode(c, name, flow, to);
    return { c, flow, code, ticket: await ticketFor(c, name, flow, code) };
  }

  const signIn = (name: string, password: string, captchaPass?: string) =>
    clientFrom(s.url).req('POST', '/users/ajax/login', {
      body: { username: name, password, captcha_pass: captchaPass },
    });

  const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  it('runs the whole way: slider → check → retrieve → mailed code → ticket → new password, old one refused', async () => {
    const c = clientFrom(s.url, undefined, EN);
    const plain = await call(c, 'GET', `${u('alice')}/check`);
    expect(plain.json).toEqual({ locked: false, need_captcha: false });

    const p = await pass(c, 'alice');
    const check = await call(c, 'GET', `${u('alice')}/check`, undefined, { 'x-captcha-pass': p });
    expect(check.status).toBe(200);
    expect(check.json).toEqual({ locked: false, need_captcha: false, exists: true, email: 'a***@example.com' });
    // The check does not spend the pass; opening the recovery does.
    const opened = await call(c, 'POST', `${u('alice')}/password:retrieve`, { captcha_pass: p });
    expect(opened.status, opened.text).toBe(200);
    expect(opened.json).toEqual({
      flow: expect.any(String),
      email: 'a***@example.com',
      expires_at: expect.any(Number),
    });
    secrets.add(opened.json.flow);
    const replay = await call(c, 'POST', `${u('alice')}/password:retrieve`, { captcha_pass: p });
    expect([replay.status, replay.json.code]).toEqual([403, 'CaptchaInvalid']);

    const since = sink.mails.length;
    const sent = await sendCode(c, 'alice', opened.json.flow);
    const now = s.clock.now().getTime();
    expect(sent.json).toEqual({
      email: 'a***@example.com',
      code_expires_at: now + 10 * MINUTE,
      resend_available_at: now + MINUTE,
    });
    const mail = await mailTo('alice@example.com', since);
    expect(mail.subject).toBe('Your password recovery code');
    const code = /(?<![0-9])([0-9]{6})(?![0-9])/.exec(mail.text)![1];
    codes.add(code);
    secrets.add(code);
    const ticket = await ticketFor(c, 'alice', opened.json.flow, code);
    const done = await reset(c, 'alice', ticket);
    expect([done.status, done.json]).toEqual([200, { success: true }]);

    expect((await signIn('alice', NEW)).status).toBe(200);
    const old = await signIn('alice', OLD);
    expect([old.status, old.json.code]).toEqual([401, 'AccountOrPasswordIncorrect']);
  });

  it('check without a pass answers the same for existing, mail-less and unknown names', async () => {
    const c = clientFrom(s.url, undefined, EN);
    const seen = await Promise.all(
      ['carol', 'bob', 'ghost-zz'].map(async (n) => {
        const a = await call(c, 'GET', `${u(n)}/check`);
        return [a.status, withoutRequestId(a.json)];
      }),
    );
    expect(seen).toEqual([0, 1, 2].map(() => [200, { locked: false, need_captcha: false }]));
  });

  it('check and retrieve with a pass: masked e-mail, AccountNotExist, AccountNoEmail (also for an unverified one)', async () => {
    const c = clientFrom(s.url, undefined, EN);
    await s.ctx.db.updateTable('users').set({ email_verified: 0 }).where('username', '=', 'carol').execute();
    const checkWith = async (n: string) =>
      call(c, 'GET', `${u(n)}/check`, undefined, { 'x-captcha-pass': await pass(c, n) });
    const retrieveWith = async (n: string) =>
      call(c, 'POST', `${u(n)}/password:retrieve`, { captcha_pass: await pass(c, n) });
    for (const go of [checkWith, retrieveWith]) {
      const ghost = await go('ghost-zz');
      expect([ghost.status, ghost.json.code, ghost.json.message]).toEqual([
        404,
        'AccountNotExist',
        'The account does not exist.',
      ]);
      for (const n of ['bob', 'carol']) {
        const none = await go(n);
        expect([none.status, none.json.code, none.json.message]).toEqual([
          400,
          'AccountNoEmail',
          'This account has no email address. Please contact the administrator.',
        ]);
      }
    }
    const bad = await call(c, 'GET', `${u('carol')}/check`, undefined, { 'x-captcha-pass': 'not-a-pass' });
    expect([bad.status, bad.json.code]).toEqual([403, 'CaptchaInvalid']);
    const badOpen = await call(c, 'POST', `${u('carol')}/password:retrieve`, { captcha_pass: 'not-a-pass' });
    expect([badOpen.status, badOpen.json.code]).toEqual([403, 'CaptchaInvalid']);
    await s.ctx.db.updateTable('users').set({ email_verified: 1 }).where('username', '=', 'carol').execute();
    const ok = await checkWith('carol');
    expect(ok.json).toMatchObject({ exists: true, email: 'c***@example.com' });
  });

  it('limits checks with a pass per address: 50 parallel with valid passes → exactly 10 answered, 40 × 429', async () => {
    const email = await user('dora');
    expect(email).toBe('dora@example.com');
    const passes = await solveSliders(s.ctx, s.url, 'dora', 50);
    passes.forEach((p) => secrets.add(p));
    const attacker = clientFrom(s.url, undefined, EN);
    const all = await Promise.all(
      passes.map((p) => call(attacker, 'GET', `${u('dora')}/check`, undefined, { 'x-captcha-pass': p })),
    );
    expect(all.filter((a) => a.status === 200)).toHaveLength(10);
    const limited = all.filter((a) => a.status === 429);
    expect(limited).toHaveLength(40);
    for (const a of limited) {
      expect(a.json).toMatchObject({
        code: 'TooManyRequestsMinute',
        message: 'Too many requests, please try again in one minute.',
      });
      expect(Number(a.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(a.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    }
    // Another address is not limited; this one may check again after the minute.
    const other = await call(clientFrom(s.url), 'GET', `${u('dora')}/check`, undefined, {
      'x-captcha-pass': passes[0],
    });
    expect(other.status).toBe(200);
    s.clock.advance(MINUTE);
    expect((await call(attacker, 'GET', `${u('dora')}/check`, undefined, { 'x-captcha-pass': passes[1] })).status).toBe(
      200,
    );
  });

  it('mails a code once a minute: 50 parallel asks → one mail, 49 × 429; a resend after 60 s (old code ends)', async () => {
    const to = await user('erik');
    const c = clientFrom(s.url, undefined, EN);
    const flow = await retrieve(c, 'erik');
    const since = sink.mails.length;
    const all = await Promise.all(Array.from({ length: 50 }, () => sendCode(c, 'erik', flow)));
    expect(all.filter((a) => a.status === 200)).toHaveLength(1);
    const limited = all.filter((a) => a.status === 429);
    expect(limited.map((a) => a.json.code)).toEqual(Array(49).fill('RecoveryMailTooFrequent'));
    expect(limited[0].json.message).toBe('Too many emails. Please try again in one minute.');
    for (const a of limited) expect(a.headers.get('retry-after')).toBe('60');
    await mailTo(to, since);
    expect(mailsTo(to, since)).toHaveLength(1);
    const first = /(?<![0-9])([0-9]{6})(?![0-9])/.exec(mailsTo(to, since)[0].text)![1];
    codes.add(first);
    secrets.add(first);

    s.clock.advance(MINUTE - 1000);
    const early = await sendCode(c, 'erik', flow);
    expect([early.status, early.json.code, early.headers.get('retry-after')]).toEqual([
      429,
      'RecoveryMailTooFrequent',
      '1',
    ]);
    s.clock.advance(1000);
    const second = await mailedCode(c, 'erik', flow, to);
    expect(mailsTo(to, since)).toHaveLength(2);
    if (second !== first) {
      const stale = await verify(c, 'erik', flow, first);
      expect([stale.status, stale.json.code]).toEqual([400, 'VerificationCodeIncorrect']);
    }
    expect((await verify(c, 'erik', flow, second)).status).toBe(200);
  });

  it('stores codes, flow ids and tickets only as digests', async () => {
    await user('fay');
    const { c, flow, code, ticket } = await upToTicket('fay');
    const dump = JSON.stringify(await s.ctx.db.selectFrom('recovery_flows').selectAll().execute());
    expect(dump).not.toContain(flow);
    expect(dump).not.toContain(ticket);
    expect(codeIn(code, dump)).toBe(false);
    // While a code is outstanding, too.
    const flow2 = await retrieve(c, 'fay');
    s.clock.advance(MINUTE);
    const code2 = await mailedCode(c, 'fay', flow2, 'fay@example.com');
    const rows = await s.ctx.db.selectFrom('recovery_flows').selectAll().execute();
    for (const row of rows) {
      for (const v of Object.values(row)) expect(String(v)).not.toMatch(/^[0-9]{6}$/);
    }
    expect(codeIn(code2, JSON.stringify(rows))).toBe(false);
  });

  it('a wrong code tells the tries left; the 5th ends the code, and the right one is refused after', async () => {
    const to = await user('gina');
    const c = clientFrom(s.url, undefined, EN);
    const flow = await retrieve(c, 'gina');
    const code = await mailedCode(c, 'gina', flow, to);
    const seen: Array<[number, string, string]> = [];
    for (let i = 0; i < 5; i++) {
      const a = await verify(c, 'gina', flow, wrong(code));
      seen.push([a.status, a.json.code, a.json.message]);
    }
    expect(seen).toEqual([
      ...[4, 3, 2, 1].map((n) => [
        400,
        'VerificationCodeIncorrect',
        `The verification code is incorrect (${n} tries left).`,
      ]),
      [400, 'VerificationCodeExhausted', 'Verification code incorrect. Please get a new one.'],
    ]);
    const right = await verify(c, 'gina', flow, code);
    expect([right.status, right.json.code]).toEqual([400, 'VerificationCodeExhausted']);
    // A new code (after the minute) has its own five tries.
    s.clock.advance(MINUTE);
    const next = await mailedCode(c, 'gina', flow, to);
    expect((await verify(c, 'gina', flow, next)).status).toBe(200);
  });

  it('50 parallel wrong guesses evaluate at most 5 (4 × incorrect, then exhausted)', async () => {
    const to = await user('hugo');
    const c = clientFrom(s.url, undefined, EN);
    const flow = await retrieve(c, 'hugo');
    const code = await mailedCode(c, 'hugo', flow, to);
    const guesses = Array.from({ length: 50 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'));
    const all = await Promise.all(guesses.map((g) => verify(c, 'hugo', flow, g)));
    const incorrect = all.filter((a) => a.json.code === 'VerificationCodeIncorrect');
    expect(incorrect).toHaveLength(4);
    expect(incorrect.map((a) => a.json.message).sort()).toEqual(
      [1, 2, 3, 4].map((n) => `The verification code is incorrect (${n} tries left).`),
    );
    expect(all.filter((a) => a.json.code === 'VerificationCodeExhausted')).toHaveLength(46);
    const row = await s.ctx.db
      .selectFrom('recovery_flows')
      .select('code_tries')
      .where('username', '=', 'hugo')
      .executeTakeFirstOrThrow();
    expect(Number(row.code_tries)).toBe(5);
    expect((await verify(c, 'hugo', flow, code)).json.code).toBe('VerificationCodeExhausted');
  });

  it('a code expires after 10 minutes', async () => {
    const to = await user('ivy');
    const c = clientFrom(s.url, undefined, EN);
    const flow = await retrieve(c, 'ivy');
    const code = await mailedCode(c, 'ivy', flow, to);
    s.clock.advance(10 * MINUTE);
    const late = await verify(c, 'ivy', flow, code);
    expect([late.status, late.json.code]).toEqual([400, 'VerificationCodeExhausted']);
    const next = await mailedCode(c, 'ivy', flow, to);
    s.clock.advance(10 * MINUTE - 1);
    expect((await verify(c, 'ivy', flow, next)).status).toBe(200);
  });

  it('a ticket expires after 10 minutes and serves one reset: then RecoveryPageInvalid', async () => {
    await user('jack');
    const first = await upToTicket('jack');
    s.clock.advance(10 * MINUTE);
    const late = await reset(first.c, 'jack', first.ticket);
    expect([late.status, late.json.code, late.json.message]).toEqual([
      400,
      'RecoveryPageInvalid',
      'This page is no longer valid. Please verify again.',
    ]);
    expect((await signIn('jack', OLD)).status).toBe(200);

    const second = await upToTicket('jack');
    expect((await reset(second.c, 'jack', second.ticket)).status).toBe(200);
    const again = await reset(second.c, 'jack', second.ticket, 'Other#1357');
    expect([again.status, again.json.code]).toEqual([400, 'RecoveryPageInvalid']);
    expect((await signIn('jack', NEW)).status).toBe(200);
    expect((await signIn('jack', 'Other#1357')).status).toBe(401);
    // The flow is over, too.
    const flowAfter = await sendCode(second.c, 'jack', second.flow);
    expect([flowAfter.status, flowAfter.json.code]).toEqual([400, 'RecoveryPageInvalid']);
  });

  it('a flow, its code and its ticket serve only the username they were opened for', async () => {
    await user('kate');
    await user('liam');
    const c = clientFrom(s.url, undefined, EN);
    const flow = await retrieve(c, 'kate');
    const foreignSend = await sendCode(c, 'liam', flow);
    expect([foreignSend.status, foreignSend.json.code]).toEqual([400, 'RecoveryPageInvalid']);
    const code = await mailedCode(c, 'kate', flow, 'kate@example.com');
    const foreignVerify = await verify(c, 'liam', flow, code);
    expect([foreignVerify.status, foreignVerify.json.code]).toEqual([400, 'RecoveryPageInvalid']);
    const ticket = await ticketFor(c, 'KATE', flow, code);
    const foreignReset = await reset(c, 'liam', ticket);
    expect([foreignReset.status, foreignReset.json.code]).toEqual([400, 'RecoveryPageInvalid']);
    expect((await signIn('liam', OLD)).status).toBe(200);
    expect((await reset(c, 'kate', ticket)).status).toBe(200);
    expect((await signIn('kate', NEW)).status).toBe(200);
    const unknown = await sendCode(c, 'kate', 'no-such-flow');
    expect([unknown.status, unknown.json.code]).toEqual([400, 'RecoveryPageInvalid']);
  });

  it('a reset ends every session, clears the lock and mails "your password was changed"', async () => {
    const to = await user('mona');
    const sessions = [new Client(s.url), new Client(s.url)];
    for (const sc of sessions) expect((await sc.login('mona', OLD)).status).toBe(200);
    // Lock the account: 5 failures, each with a fresh pass (the slider is needed from the 3rd).
    const passes = await solveSliders(s.ctx, s.url, 'mona', 6);
    passes.forEach((p) => secrets.add(p));
    const attacker = clientFrom(s.url);
    const statuses: number[] = [];
    for (const p of passes.slice(0, 5)) {
      const a = await attacker.req('POST', '/users/ajax/login', {
        body: { username: 'mona', password: 'Wrong#999', captcha_pass: p },
      });
      statuses.push(a.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 423]);
    expect((await signIn('mona', OLD, passes[5])).status).toBe(423);

    const { c, ticket } = await upToTicket('mona');
    const since = sink.mails.length;
    expect((await reset(c, 'mona', ticket)).status).toBe(200);
    for (const sc of sessions) expect((await sc.req('GET', '/individual/proxy/me')).status).toBe(401);
    expect((await signIn('mona', NEW)).status).toBe(200);
    const notice = await mailTo(to, since);
    expect(notice.subject).toBe('Your password was changed');
    expect(notice.text).toContain('every signed-in session was ended');
  });

  it('mails in the user’s language, else the request’s (en_US and zh_CN)', async () => {
    const cases: Array<[string, string | null, Record<string, string>, 'en' | 'zh']> = [
      ['nora', 'zh_CN', EN, 'zh'],
      ['olga', null, ZH, 'zh'],
      ['pete', 'en_US', ZH, 'en'],
      ['quin', null, EN, 'en'],
    ];
    for (const [name, language, headers, lang] of cases) {
      const to = await user(name, language);
      const since = sink.mails.length;
      const { c, ticket } = await upToTicket(name, to, clientFrom(s.url, undefined, headers));
      expect((await reset(c, name, ticket)).status).toBe(200);
      const [codeMail, notice] = mailsTo(to, since);
      expect(notice, `notice to ${name}`).toBeDefined();
      if (lang === 'zh') {
        expect(codeMail.text).toContain('你正在找回密码，验证码');
        expect(notice.text).toContain('你的账号密码刚刚通过找回密码流程修改');
      } else {
        expect(codeMail.subject).toBe('Your password recovery code');
        expect(notice.subject).toBe('Your password was changed');
      }
    }
  });

  it('an account its owner held ("this wasn\'t me") is not handed back by recovery: 423 AccountHeld, ticket kept', async () => {
    await user('held');
    const { c, ticket } = await upToTicket('held');
    const id = s.users.held.id;
    await s.ctx.db.updateTable('users').set({ held_at: s.clock.now().getTime() }).where('id', '=', id).execute();
    const refused = await reset(c, 'held', ticket);
    expect([refused.status, refused.json.code]).toEqual([423, 'AccountHeld']);
    expect((await signIn('held', NEW)).status).toBe(401);
    // Lifted by an administrator, the same ticket (not spent by the refusal) goes through.
    await s.ctx.db.updateTable('users').set({ held_at: null }).where('id', '=', id).execute();
    expect((await reset(c, 'held', ticket)).status).toBe(200);
  });

  it('nothing is half-written: a reset refused by the password rule keeps the ticket usable', async () => {
    await user('rosa');
    const { c, ticket } = await upToTicket('rosa');
    const short = await reset(c, 'rosa', ticket, 'Ab#1');
    expect([short.status, short.json.code]).toEqual([400, 'PasswordTooShort']);
    const plain = await reset(c, 'rosa', ticket, 'onlyletters');
    expect(plain.status).toBe(400);
    expect((await signIn('rosa', OLD)).status).toBe(200);
    expect((await reset(c, 'rosa', ticket)).status).toBe(200);
    expect((await signIn('rosa', NEW)).status).toBe(200);
  });

  it('no code, ticket, flow id, pass or password in any log line, and no code in any answer', () => {
    expect(codes.size).toBeGreaterThan(10);
    expect(secrets.size).toBeGreaterThan(50);
    const logs = s.logs.join('\n');
    for (const secret of secrets) {
      if (codes.has(secret)) expect(codeIn(secret, logs), `a code in the logs`).toBe(false);
      else expect(logs, `log leaks ${secret.slice(0, 4)}…`).not.toContain(secret);
    }
    for (const code of codes) {
      for (const text of answers) expect(codeIn(code, text), `answer leaks a code: ${text}`).toBe(false);
    }
  });
});

describe('password recovery without a mail service', () => {
  const off = useTestServer({
    env: { SMTP_URL: 'off', TRUST_PROXY: 'loopback' },
    seed: { users: { alice: { password: OLD, email: 'alice@example.com' } } },
  });

  it('answers MailServiceNotConfigured (a 4xx, so the page shows that message) when asked for a code', async () => {
    const c = clientFrom(off.url, undefined, EN);
    const p = await solveSlider(off.ctx, c, 'alice');
    const flow = await c.req('POST', `${u('alice')}/password:retrieve`, { body: { captcha_pass: p } });
    expect(flow.status, flow.text).toBe(200);
    const a = await c.req('POST', `${u('alice')}/emailCaptcha`, { body: { flow: flow.json.flow } });
    expect([a.status, a.json.code, a.json.message]).toEqual([
      400,
      'MailServiceNotConfigured',
      'The email service is not configured for the enterprise.',
    ]);
  });
});

describe('password recovery when the mail server refuses', () => {
  const down = useTestServer({
    // Nothing listens on port 9 of loopback (discard): the connection is refused at once.
    env: { SMTP_URL: 'smtp://127.0.0.1:9', TRUST_PROXY: 'loopback' },
    seed: { users: { alice: { password: OLD, email: 'alice@example.com' } } },
  });

  it('answers 502 RecoveryMailFailed and gives the minute back', async () => {
    const c = clientFrom(down.url, undefined, EN);
    const p = await solveSlider(down.ctx, c, 'alice');
    const flow = (await c.req('POST', `${u('alice')}/password:retrieve`, { body: { captcha_pass: p } })).json.flow;
    for (let i = 0; i < 2; i++) {
      const a = await c.req('POST', `${u('alice')}/emailCaptcha`, { body: { flow } });
      expect([a.status, a.json.code]).toEqual([502, 'RecoveryMailFailed']);
    }
  });
});
