import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, useTestServer } from '../kit/server';
import { startSmtpSink, type SinkMail, type SmtpSink } from '../kit/smtp';
import { solveSliders } from '../kit/captcha';

// Security mail without links (issue 40, item 6): a changed password, a sign-in from a new device, a lock and "this
// wasn't me" are mailed to the account's verified address, in its language (else the request's), telling the member
// to open the product themselves; none carries a link. Against a real SMTP sink.

const PASSWORD = 'Secret#123';

describe('security mail', () => {
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(() => sink.close());
  const s = useTestServer(() => ({
    env: { SMTP_URL: sink.url, TRUST_PROXY: 'loopback' },
    seed: {
      users: {
        erin: { password: PASSWORD, email: 'erin@example.com' },
        zhao: { password: PASSWORD, email: 'zhao@example.com' },
        nomail: { password: PASSWORD },
      },
    },
  }));

  /** Mails to `to` received since `since`, waiting (briefly) until there are `count`. */
  async function mailsTo(to: string, since: number, count = 1): Promise<SinkMail[]> {
    for (let i = 0; i < 100; i++) {
      const found = sink.mails.slice(since).filter((m) => m.to.includes(to));
      if (found.length >= count) return found;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`fewer than ${count} mail(s) to ${to}`);
  }

  /** The Subject header as a reader sees it (RFC 2047 encoded words undone). */
  const subjectOf = (m: SinkMail) =>
    m.subject
      .replace(/\?=\s+=\?/g, '?==?')
      .replace(/=\?UTF-8\?B\?([^?]*)\?=/gi, (_, b: string) => Buffer.from(b, 'base64').toString('utf8'));

  const noLink = (m: SinkMail) => {
    expect(m.links, m.text).toEqual([]);
    expect(m.text).not.toMatch(/https?:|www\.|\/users\//);
  };

  it('a password change, a new device and "this wasn\'t me" each mail the owner, without a link', async () => {
    await s.ctx.db.updateTable('users').set({ language: 'en_US' }).where('username', '=', 'erin').execute();
    // The account's first browser is remembered; a sign-in from another one is a new device.
    expect((await new Client(s.url).login('erin', PASSWORD)).status).toBe(200);
    let since = sink.mails.length;
    const c = new Client(s.url);
    const signedIn = await c.req('POST', '/users/ajax/login', {
      body: { username: 'erin', password: PASSWORD },
      headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0' },
    });
    expect(signedIn.status).toBe(200);
    c.csrf = signedIn.json.csrf_token;
    const [device] = await mailsTo('erin@example.com', since);
    expect(device.subject).toBe('New sign-in to your account');
    noLink(device);
    expect(device.text).toContain('open the account settings yourself');
    expect(device.text).toContain('never contain links');

    since = sink.mails.length;
    const changed = await c.req('PUT', '/users/ajax/v1/my/password', {
      body: { old_password: PASSWORD, new_password: 'Changed#456' },
    });
    expect(changed.status, changed.text).toBe(200);
    const [mail] = await mailsTo('erin@example.com', since);
    expect(mail.subject).toBe('Your password was changed');
    noLink(mail);
    expect(mail.text).not.toContain('Changed#456');

    since = sink.mails.length;
    expect((await c.req('POST', '/users/ajax/v1/my/security:not-me', { body: { lock: false } })).status).toBe(200);
    const [secured] = await mailsTo('erin@example.com', since);
    expect(secured.subject).toBe('Your account was secured');
    noLink(secured);
  });

  it("in the account's language, else the request's; a lock is mailed too", async () => {
    await s.ctx.db.updateTable('users').set({ language: 'zh_CN' }).where('username', '=', 'zhao').execute();
    const since = sink.mails.length;
    // Five wrong passwords (the slider is asked from the third) lock the account.
    const passes = await solveSliders(s.ctx, s.url, 'zhao', 5);
    for (const p of passes) {
      await new Client(s.url).req('POST', '/users/ajax/login', {
        body: { username: 'zhao', password: 'Wrong#999', captcha_pass: p },
        headers: { 'accept-language': 'en-US' },
      });
    }
    const [locked] = await mailsTo('zhao@example.com', since);
    expect(subjectOf(locked)).toBe('账号登录已被锁定');
    expect(locked.text).toContain('我们的安全邮件从不包含链接');
    noLink(locked);
  });

  it('mails nobody for an account without a verified address', async () => {
    const since = sink.mails.length;
    expect((await new Client(s.url).login('nomail', PASSWORD)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
    expect(sink.mails.slice(since)).toEqual([]);
  });
});
