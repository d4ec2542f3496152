import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../../server/mail/index';
import { tempDataDir } from '../kit/server';
import { startSmtpSink, type SmtpSink } from '../kit/smtp';

describe('mail', () => {
  let sink: SmtpSink;
  let dir: string;

  beforeAll(async () => {
    dir = tempDataDir('account-mail-');
    sink = await startSmtpSink();
  });
  afterAll(async () => {
    await sink.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('delivers through SMTP when SMTP_URL is set, logging no body', async () => {
    const lines: string[] = [];
    const mailer = createMailer({
      smtpUrl: sink.url,
      dataDir: dir,
      from: 'no-reply@devops.example.com',
      log: { info: (obj, msg) => lines.push(JSON.stringify({ ...obj, msg })) },
    });
    const r = await mailer.send({
      to: 'alice@example.com',
      subject: 'Verify your e-mail',
      text: 'Your code is 314159',
    });
    mailer.close();
    expect(mailer.kind).toBe('smtp');
    expect(sink.mails).toHaveLength(1);
    expect(sink.mails[0].from).toBe('no-reply@devops.example.com');
    expect(sink.mails[0].to).toEqual(['alice@example.com']);
    expect(sink.mails[0].raw).toContain('Your code is 314159');
    expect(sink.mails[0].raw).toContain(r.messageId);
    expect(lines.join('\n')).not.toContain('314159');
    expect(lines.join('\n')).toContain('alice@example.com');
  });

  it('writes .eml files to DATA_DIR/outbox without SMTP_URL', async () => {
    const mailer = createMailer({ dataDir: dir, from: 'no-reply@localhost' });
    const r = await mailer.send({
      to: 'bob@example.com',
      subject: 'Hello',
      text: 'Link: https://x.example/verify?t=abc',
    });
    expect(mailer.kind).toBe('outbox');
    expect(path.dirname(r.file!)).toBe(path.join(dir, 'outbox'));
    const eml = fs.readFileSync(r.file!, 'utf8');
    expect(eml).toContain('To: bob@example.com');
    expect(eml).toContain('Subject: Hello');
    expect(r.file).toMatch(/\.eml$/);
  });
});
