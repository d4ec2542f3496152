// The first password of an account that has none (third-party / identity-provider sign-in) needs what an e-mail change
// needs (issue 38, item 3): the code mailed to its current address. Before, `PUT /users/ajax/v1/my/password` set it on
// the session alone, and that password then proved an e-mail change: a stolen session became a permanent takeover.
// Directory accounts (their directory password): email-change-directory.test.ts.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Client, useTestServer } from '../kit/server';
import { startSmtpSink, type SmtpSink } from '../kit/smtp';
import { SESSION_COOKIE } from '../../server/auth/sessions';

const PASSWORD = '/users/ajax/v1/my/password';
const CODE = '/users/ajax/v1/my/emails:code';
const REBIND = '/users/ajax/v1/my/emails:rebind';
const UNBIND = '/individual/proxy/my/email:unbind';
const ATTRIBUTES = '/users/ajax/v1/my/attributes:bind';
const EN = { 'accept-language': 'en-US' };
const ZH = { 'accept-language': 'zh-CN' };

describe('first password of an account without one', () => {
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(() => sink.close());
  const s = useTestServer(() => ({
    env: { SMTP_URL: sink.url },
    seed: {
      users: {
        // Third-party accounts: no password, the address their provider gave.
        tp1: { email: 'tp1@example.com' },
        tp2: { email: 'tp2@example.com' },
        tp3: { email: 'tp3@example.com' },
        tp4: { email: 'tp4@example.com' },
        // Neither a password nor an address.
        bare: {},
        alice: { password: 'Secret#123', email: 'alice@example.com' },
      },
    },
  }));
  beforeEach(async () => {
    sink.mails.length = 0;
    // A fresh hour for the one-code-a-minute throttle and the mails-per-address limit.
    s.clock.advance(3_600_000);
    await s.ctx.db.updateTable('users').set({ email_verified: 1 }).where('email', 'is not', null).execute();
  });

  /** A session of a seeded account, as its third-party sign-in would make it (the test makes it directly). */
  async function sessionOf(username: string): Promise<Client> {
    const c = new Client(s.url);
    const session = await s.ctx.sessions.create(s.users[username].id, { method: 'dingtalk' });
    c.cookies.set(SESSION_COOKIE, session.id);
    c.csrf = session.csrfToken;
    return c;
  }

  /** Asks for a code for `purpose` and reads it from the mail to the current address. */
  async function mailedCode(c: Client, to: string, purpose: 'email' | 'password') {
    sink.mails.length = 0;
    const sent = await c.req('POST', CODE, { body: { purpose }, headers: EN });
    expect(sent.status, sent.text).toBe(200);
    const mail = await sink.waitFor(to);
    return { code: /\b(\d{6})\b/.exec(mail.text)![1], mail, sent };
  }

  const passwordHash = async (username: string) =>
    (await s.ctx.db.selectFrom('users').select('password_hash').where('username', '=', username).executeTakeFirst())
      ?.password_hash ?? null;

  it('first password: without the mailed code it is refused, in the one error shape and both languages', async () => {
    const tp = await sessionOf('tp1');
    expect((await tp.req('GET', ATTRIBUTES)).json).toMatchObject({ has_password: false, directory: null });
    for (const [headers, message] of [
      [EN, 'To set a password, enter the code sent to your current email (send one from the password dialog).'],
      [ZH, '设置密码需要输入发送到你当前邮箱的验证码（可在设置密码的对话框中发送）。'],
    ] as const) {
      // Before: 200, and the account had a password the session holder chose.
      const a = await tp.req('PUT', PASSWORD, { body: { new_password: 'Chosen#2024' }, headers });
      expect(a.status, a.text).toBe(400);
      expect(Object.keys(a.json).sort()).toEqual(['code', 'message', 'requestId', 'status']);
      expect(a.json).toMatchObject({ status: 400, code: 'FirstPasswordCodeRequired', message });
      expect(a.json.requestId).toBe(a.headers.get('x-request-id'));
    }
    // An old password is no proof for an account that has none.
    const withOld = await tp.req('PUT', PASSWORD, {
      body: { new_password: 'Chosen#2024', old_password: 'Any#Thing1' },
    });
    expect([withOld.status, withOld.json.code]).toEqual([400, 'FirstPasswordCodeRequired']);
    expect(await passwordHash('tp1')).toBeNull();
    expect(sink.mails).toHaveLength(0);
  });

  it('first password: with the code mailed for it the password is set; the code is spent and proves nothing else', async () => {
    const tp = await sessionOf('tp2');
    const other = await sessionOf('tp2');
    const { code, mail, sent } = await mailedCode(tp, 'tp2@example.com', 'password');
    expect(sent.json.sent_to).toBe('t***@example.com');
    // The mail says what the code allows, and carries no link.
    expect(mail.subject).toBe('Your code to set a password');
    expect(mail.text).toContain('You are setting a password for your account.');
    expect(mail.links).toEqual([]);
    // A password code proves no e-mail change.
    const rebind = await tp.req('POST', REBIND, { body: { email: 'elsewhere@example.org', code } });
    expect([rebind.status, rebind.json.code]).toEqual([400, 'ProfileEmailCodeIncorrect']);
    const wrongCode = code === '000000' ? '111111' : '000000';
    const wrong = await tp.req('PUT', PASSWORD, {
      body: { new_password: 'Chosen#2024', code: wrongCode },
      headers: EN,
    });
    expect([wrong.status, wrong.json.code, wrong.json.message]).toEqual([
      400,
      'FirstPasswordCodeIncorrect',
      'The code is incorrect or has expired; send a new one.',
    ]);

    const ok = await tp.req('PUT', PASSWORD, { body: { new_password: 'Chosen#2024', code } });
    expect(ok.status, ok.text).toBe(200);
    expect(await passwordHash('tp2')).not.toBeNull();
    expect((await tp.req('GET', ATTRIBUTES)).json.has_password).toBe(true);
    expect((await new Client(s.url).login('tp2', 'Chosen#2024')).status).toBe(200);
    // Like any password change, it ends the account's other sessions; the code is gone.
    expect((await other.req('GET', '/individual/proxy/me')).status).toBe(401);
    const rows = await s.ctx.db.selectFrom('email_change_codes').select('user_id').execute();
    expect(rows.map((r) => r.user_id)).not.toContain(s.users.tp2.id);
    // From now on the password proves changes: a code is no longer sent.
    const more = await tp.req('POST', CODE, { body: { purpose: 'password' } });
    expect([more.status, more.json.code]).toEqual([400, 'ProfileEmailBindingStatusWrong']);
  });

  it('first password: a code mailed for an e-mail change does not set a password, nor one expired', async () => {
    const tp = await sessionOf('tp3');
    const forEmail = await mailedCode(tp, 'tp3@example.com', 'email');
    expect(forEmail.mail.subject).toBe('Your code to change the email');
    const a = await tp.req('PUT', PASSWORD, { body: { new_password: 'Chosen#2024', code: forEmail.code } });
    expect([a.status, a.json.code]).toEqual([400, 'FirstPasswordCodeIncorrect']);
    s.clock.advance(61_000);
    const forPassword = await mailedCode(tp, 'tp3@example.com', 'password');
    s.clock.advance(10 * 60_000 + 1);
    const late = await tp.req('PUT', PASSWORD, { body: { new_password: 'Chosen#2024', code: forPassword.code } });
    expect([late.status, late.json.code]).toEqual([400, 'FirstPasswordCodeIncorrect']);
    expect(await passwordHash('tp3')).toBeNull();
    await s.ctx.lockout.unlock('tp3');
  });

  it('first password: a stolen session alone cannot get from "no password" to "e-mail changed"', async () => {
    const thief = await sessionOf('tp4');
    // 1. Set a password of the thief's choosing: refused without the code.
    const set = await thief.req('PUT', PASSWORD, { body: { new_password: 'Thief#0001' } });
    expect([set.status, set.json.code]).toEqual([400, 'FirstPasswordCodeRequired']);
    // 2. Have a code sent: it goes to the owner's mailbox, which says what it is for; the thief sees it masked only.
    const sent = await thief.req('POST', CODE, { body: { purpose: 'password' }, headers: EN });
    expect(sent.status, sent.text).toBe(200);
    expect(JSON.stringify(sent.json)).not.toMatch(/\b\d{6}\b/);
    const mail = await sink.waitFor('tp4@example.com');
    expect(mail.subject).toBe('Your code to set a password');
    const code = /\b(\d{6})\b/.exec(mail.text)![1];
    // 3. Guess it: 20 parallel guesses take the sign-in lockout's slots; 4 judged wrong, then the account locks.
    const guesses = Array.from({ length: 20 }, (_, i) => String(100000 + i * 7919).slice(0, 6)).filter(
      (g) => g !== code,
    );
    const answers = await Promise.all(
      guesses.map((g) => thief.req('PUT', PASSWORD, { body: { new_password: 'Thief#0001', code: g } })),
    );
    const codes = answers.map((a) => a.json.code);
    expect(codes.filter((c) => c === 'FirstPasswordCodeIncorrect')).toHaveLength(4);
    expect(codes.filter((c) => c === 'AccountLocked')).toHaveLength(guesses.length - 4);
    // Locked: even the right code is refused unevaluated (and stays unspent for the owner after the hour).
    const right = await thief.req('PUT', PASSWORD, { body: { new_password: 'Thief#0001', code } });
    expect([right.status, right.json.code]).toEqual([423, 'AccountLocked']);
    // 4. Move the e-mail (and with it password recovery): there is no password to prove with, only the code (a
    // password field is no part of the call since re-authentication took the password check over).
    const moved = await thief.req('POST', REBIND, { body: { email: 'thief@evil.example' } });
    expect([moved.status, moved.json.code]).toEqual([400, 'ProfileEmailCodeRequired']);
    const gone = await thief.req('POST', UNBIND, { body: { email: 'tp4@example.com' } });
    expect([gone.status, gone.json.code]).toEqual([400, 'ProfileEmailCodeRequired']);
    const withPassword = await thief.req('POST', REBIND, {
      body: { email: 'thief@evil.example', password: 'Thief#0001' },
    });
    expect(withPassword.status).toBe(400);
    expect(withPassword.json.code).not.toBe('ProfileEmailCodeRequired');
    expect(await passwordHash('tp4')).toBeNull();
    expect((await thief.req('GET', '/individual/proxy/me')).json).toMatchObject({
      email: 'tp4@example.com',
      email_verified: true,
    });
    expect((await new Client(s.url).login('tp4', 'Thief#0001')).status).not.toBe(200);
    expect(sink.mails.filter((m) => m.to.includes('thief@evil.example'))).toHaveLength(0);
    await s.ctx.lockout.unlock('tp4');
  });

  it('first password: an account with neither a password nor an address has nothing to prove with', async () => {
    const bare = await sessionOf('bare');
    // No address to send a code to (and it could bind one with its session alone: email-change.test.ts).
    const code = await bare.req('POST', CODE, { body: { purpose: 'password' } });
    expect([code.status, code.json.code]).toEqual([400, 'ProfileEmailBindingStatusWrong']);
    const set = await bare.req('PUT', PASSWORD, { body: { new_password: 'Chosen#2024' } });
    expect(set.status, set.text).toBe(200);
    expect((await new Client(s.url).login('bare', 'Chosen#2024')).status).toBe(200);
  });

  it('an account with a password changes it with the current one, as before; it is sent no code', async () => {
    const { alice } = await s.signIn('alice');
    const code = await alice.req('POST', CODE, { body: { purpose: 'password' } });
    expect([code.status, code.json.code]).toEqual([400, 'ProfileEmailBindingStatusWrong']);
    const bare = await alice.req('PUT', PASSWORD, { body: { new_password: 'Fresh#0001', code: '123456' } });
    expect([bare.status, bare.json.code]).toEqual([400, 'OldPasswordRequired']);
    const ok = await alice.req('PUT', PASSWORD, { body: { new_password: 'Fresh#0001', old_password: 'Secret#123' } });
    expect(ok.status, ok.text).toBe(200);
    // The only mail is the security notice of the change, which carries no code.
    expect(sink.mails.map((m) => m.to)).toEqual([['alice@example.com']]);
    expect(sink.mails[0].text).not.toMatch(/(?<![0-9])[0-9]{6}(?![0-9])/);
  });
});
