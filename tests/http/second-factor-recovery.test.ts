// Password recovery of an account with a second factor (issue 41, item 4; ASVS 6.4.3): the mailbox alone does not
// hand the account back. The code's ticket says which factor is due; the reset cannot end without a right one (an
// authenticator code, a passkey assertion or a recovery code, once), its wrong answers count in the sign-in lockout,
// and until then nothing changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, useTestServer, type Answer } from '../kit/server';
import { startSmtpSink, type SinkMail, type SmtpSink } from '../kit/smtp';
import { clientFrom, solveSlider } from '../kit/captcha';
import { expectNoSecrets } from '../kit/secrets';
import { SoftAuthenticator } from '../kit/soft-authenticator';
import { relyingParty, totpCode } from '../../server/auth/second-factor/index';
import { recoveryFactorOptionsPath } from '../../plugins/reset-password/limits';
import type { FactorProof } from '../../schemas/second-factor';

const OLD = 'Secret#123';
const NEW = 'Fresh#2468';
const EN = { 'accept-language': 'en-US' };
const STEP = 30_000;

const u = (name: string) => `/users/ajax/users/${encodeURIComponent(name)}`;

describe('password recovery of an account with a second factor', () => {
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(() => sink.close());
  const s = useTestServer(() => ({
    env: { SMTP_URL: sink.url, TRUST_PROXY: 'loopback' },
    seed: { users: { plain: { password: OLD, email: 'plain@example.com' } } },
  }));

  const secrets = new Set<string>([OLD, NEW]);
  const answers: string[] = [];
  const now = () => s.clock.now().getTime();
  let accounts = 0;

  /** A new account with an address, an authenticator app, a passkey and recovery codes. */
  async function twoFactor() {
    const name = `rf${++accounts}`;
    const made = await s.seed({ users: { [name]: { password: OLD, email: `${name}@example.com` } } });
    const id = made.users[name].id;
    const user = { id, username: name, name: '' };
    const e = await s.ctx.secondFactors.startTotp(user);
    expect(await s.ctx.secondFactors.confirmTotp(id, totpCode(e.secret, now()))).toBe(true);
    s.clock.advance(STEP);
    secrets.add(e.secret);
    const auth = new SoftAuthenticator(relyingParty(s.ctx.config));
    expect(
      await s.ctx.secondFactors.register(id, auth.register(await s.ctx.secondFactors.registrationOptions(user)), 'Key'),
    ).not.toBeNull();
    const codes = await s.ctx.secondFactors.newRecoveryCodes(id);
    for (const c of codes) secrets.add(c);
    return { id, name, secret: e.secret, auth, codes };
  }

  async function call(c: Client, method: string, p: string, body?: unknown): Promise<Answer> {
    const a = await c.req(method, p, { body });
    answers.push(a.text);
    return a;
  }

  async function mailTo(to: string, since: number): Promise<SinkMail> {
    for (let i = 0; i < 100; i++) {
      const mail = sink.mails.slice(since).find((m) => m.to.includes(to));
      if (mail) return mail;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`no mail to ${to}`);
  }

  /** Slider → flow → mailed code → the verify answer (the ticket, and the factor due), from a fresh address. */
  async function upToTicket(name: string, c = clientFrom(s.url, undefined, EN)) {
    const pass = await solveSlider(s.ctx, c, name);
    secrets.add(pass);
    const opened = await call(c, 'POST', `${u(name)}/password:retrieve`, { captcha_pass: pass });
    expect(opened.status, opened.text).toBe(200);
    secrets.add(opened.json.flow);
    const since = sink.mails.length;
    expect((await call(c, 'POST', `${u(name)}/emailCaptcha`, { flow: opened.json.flow })).status).toBe(200);
    const code = /(?<![0-9])([0-9]{6})(?![0-9])/.exec((await mailTo(`${name}@example.com`, since)).text)![1];
    secrets.add(code);
    const verified = await call(c, 'POST', `${u(name)}/emailCaptcha:verify`, { flow: opened.json.flow, code });
    expect(verified.status, verified.text).toBe(200);
    secrets.add(verified.json.ticket);
    return { c, ticket: verified.json.ticket as string, verified };
  }

  const reset = (c: Client, name: string, ticket: string, second_factor?: FactorProof) =>
    call(c, 'PUT', `${u(name)}/password:reset`, {
      ticket,
      new_password: NEW,
      ...(second_factor ? { second_factor } : {}),
    });

  const totp = (secret: string, at = now()): FactorProof => {
    const code = totpCode(secret, at);
    secrets.add(code);
    return { method: 'totp', code };
  };

  /** Whether `password` is the account's password now: a first step that passes (a step, or a session). */
  const passwordWorks = async (name: string, password: string) =>
    (await clientFrom(s.url).req('POST', '/users/ajax/login', { body: { username: name, password } })).status === 200;

  it('the ticket says the factor is due; without it, or with a wrong one, nothing changes; a right code ends it', async () => {
    const account = await twoFactor();
    const { c, ticket, verified } = await upToTicket(account.name);
    expect(verified.json).toEqual({
      ticket: expect.any(String),
      expires_at: now() + 10 * 60_000,
      second_factor: {
        methods: expect.arrayContaining(['totp', 'webauthn', 'recovery']),
        expires_at: now() + 10 * 60_000,
      },
    });
    const missing = await reset(c, account.name, ticket);
    expect(missing.status).toBe(400);
    expect(missing.json.code).toBe('SecondFactorRequired');
    const wrong = await reset(c, account.name, ticket, { method: 'totp', code: '000000' });
    expect(wrong.status).toBe(401);
    expect(wrong.json).toMatchObject({
      code: 'RecoveryFactorWrong',
      message: 'The code or passkey was not accepted. Please try again.',
    });
    // Nothing changed: the old password still passes the first step, the new one does not.
    expect(await passwordWorks(account.name, OLD)).toBe(true);
    expect(await passwordWorks(account.name, NEW)).toBe(false);
    // The ticket still stands: the right code ends the recovery.
    const done = await reset(c, account.name, ticket, totp(account.secret));
    expect(done.status, done.text).toBe(200);
    expect(await passwordWorks(account.name, OLD)).toBe(false);
    expect(await passwordWorks(account.name, NEW)).toBe(true);
    // Single use, as before.
    expect((await reset(c, account.name, ticket, totp(account.secret, now() + STEP))).status).toBe(400);
  });

  it('an account without a second factor resets as before (no factor asked)', async () => {
    const { c, ticket, verified } = await upToTicket('plain');
    expect(verified.json.second_factor).toBeUndefined();
    expect((await reset(c, 'plain', ticket)).status).toBe(200);
  });

  it('a recovery code ends it once; a passkey through the options keyed by the ticket', async () => {
    const account = await twoFactor();
    const first = await upToTicket(account.name);
    expect(
      (await reset(first.c, account.name, first.ticket, { method: 'recovery', code: account.codes[0] })).status,
    ).toBe(200);
    s.clock.advance(2 * 60_000);
    const second = await upToTicket(account.name);
    const reused = await reset(second.c, account.name, second.ticket, { method: 'recovery', code: account.codes[0] });
    expect(reused.status).toBe(401);
    // The options need a live ticket of this account's recovery.
    const none = await call(second.c, 'POST', recoveryFactorOptionsPath(account.name), { ticket: 'x'.repeat(32) });
    expect(none.status).toBe(400);
    expect(none.json.code).toBe('RecoveryPageInvalid');
    const opts = await second.c.req('POST', recoveryFactorOptionsPath(account.name), {
      body: { ticket: second.ticket },
    });
    expect(opts.status, opts.text).toBe(200);
    secrets.add(opts.json.challenge);
    expect(opts.json.allowCredentials).toHaveLength(1);
    const bad = await reset(second.c, account.name, second.ticket, {
      method: 'webauthn',
      response: account.auth.assert(opts.json, { badSignature: true }),
    });
    expect(bad.status).toBe(401);
    const fresh = await second.c.req('POST', recoveryFactorOptionsPath(account.name), {
      body: { ticket: second.ticket },
    });
    secrets.add(fresh.json.challenge);
    const ok = await reset(second.c, account.name, second.ticket, {
      method: 'webauthn',
      response: account.auth.assert(fresh.json),
    });
    expect(ok.status, ok.text).toBe(200);
  });

  it("one account's ticket names nothing under another account's name: no options, no reset, nothing judged", async () => {
    const victim = await twoFactor();
    const attacker = await twoFactor();
    const { c, ticket } = await upToTicket(attacker.name);
    const opts = await call(c, 'POST', recoveryFactorOptionsPath(victim.name), { ticket });
    expect(opts.status).toBe(400);
    expect(opts.json.code).toBe('RecoveryPageInvalid');
    const reset1 = await reset(c, victim.name, ticket, totp(attacker.secret));
    expect(reset1.status).toBe(400);
    expect(reset1.json.code).toBe('RecoveryPageInvalid');
    expect(await passwordWorks(victim.name, OLD)).toBe(true);
    expect(await passwordWorks(victim.name, NEW)).toBe(false);
    // The attacker's own code was not judged (nor spent) there.
    expect((await reset(c, attacker.name, ticket, totp(attacker.secret))).status).toBe(200);
  });

  it('wrong answers count in the sign-in lockout: the 5th locks, and the recovery cannot end while locked', async () => {
    const account = await twoFactor();
    const { c, ticket } = await upToTicket(account.name);
    for (let i = 0; i < 4; i++)
      expect((await reset(c, account.name, ticket, { method: 'totp', code: '000000' })).status).toBe(401);
    const fifth = await reset(c, account.name, ticket, { method: 'totp', code: '000000' });
    expect(fifth.status).toBe(423);
    expect(fifth.json.code).toBe('RecoveryAccountLocked');
    const right = await reset(c, account.name, ticket, totp(account.secret));
    expect(right.status).toBe(423);
    expect(await passwordWorks(account.name, NEW)).toBe(false);
    // The sign-in is locked too.
    const signIn = await clientFrom(s.url).req('POST', '/users/ajax/login', {
      body: { username: account.name, password: OLD },
    });
    expect(signIn.status).toBe(423);
    await s.ctx.lockout.unlock(account.name);
  });

  it('logs no secret, code, ticket or challenge, and answers none', () => {
    expectNoSecrets(s.logs, [...secrets]);
    const inAnswer = (x: string) =>
      /^[0-9]+$/.test(x)
        ? answers.some((a) => new RegExp(`(?<![0-9.])${x}(?![0-9])`).test(a))
        : answers.some((a) => a.includes(x));
    // The ticket is the verify answer's own (shown once, as before); everything else must not appear.
    const tickets = answers.flatMap((a) => {
      try {
        const t = (JSON.parse(a) as { ticket?: string; flow?: string }) ?? {};
        return [t.ticket, t.flow].filter(Boolean) as string[];
      } catch {
        return [];
      }
    });
    expect([...secrets].filter((x) => x.length >= 6 && !tickets.includes(x) && inAnswer(x))).toEqual([]);
  });
});
