import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { createMailer } from '../../server/mail/index';

interface Received {
  from: string;
  to: string[];
  data: string;
}

describe('mail', () => {
  const received: Received[] = [];
  let server: SMTPServer;
  let port: number;
  let dir: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'account-mail-'));
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, cb) {
        let data = '';
        stream.on('data', (c: Buffer) => (data += c.toString('utf8')));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            data,
          });
          cb();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('delivers through SMTP when SMTP_URL is set, logging no body', async () => {
    const lines: string[] = [];
    const mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${port}`,
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
    expect(received).toHaveLength(1);
    expect(received[0].from).toBe('no-reply@devops.example.com');
    expect(received[0].to).toEqual(['alice@example.com']);
    expect(received[0].data).toContain('Your code is 314159');
    expect(received[0].data).toContain(r.messageId);
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
