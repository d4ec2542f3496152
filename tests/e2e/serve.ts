// The real service for one e2e project: a fresh temp database, the edition's built bundle, loopback only.
// Seeds the accounts the specs sign in with (tests/e2e/fixtures.ts names them).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { createOrg, createUser, installApp } from '../../server/services/accounts';
import { bindIdentity } from '../../plugins/third-party/server/service';
import { E2E_ORG, E2E_PACKAGES_ORG, E2E_USERS, mailApiPortFile, type E2EMail } from './fixtures';
import { SMTPServer } from 'smtp-server';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `e2e-${process.env.EDITION ?? 'vpc'}-`));
// A real SMTP sink on loopback receives the service's mail; specs read it through mailsTo() (fixtures.ts).
const mails: E2EMail[] = [];
const smtp = await startSmtpSink(mails);
const config = loadConfig({ ...process.env, DATA_DIR: dataDir, SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
const app = await buildApp({ ...config, logger: false });
await createOrg(app.ctx, E2E_ORG.name);
for (const key of E2E_ORG.apps) await installApp(app.ctx, E2E_ORG.name, key);
await createOrg(app.ctx, E2E_PACKAGES_ORG.name);
for (const key of E2E_PACKAGES_ORG.apps) await installApp(app.ctx, E2E_PACKAGES_ORG.name, key);
for (const u of Object.values(E2E_USERS)) {
  await createUser(app.ctx, { org: E2E_ORG.name, ...u });
}
// The third-party page of the keys user shows one synchronised account (DingTalk) and two empty entries.
await bindIdentity(app.ctx, { username: E2E_USERS.keys.username, provider: 'dingtalk', openId: 'ding-e2e-001' });
await app.listen({ port: config.port, host: config.host });
const mailApi = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (url.pathname !== '/mails') return void res.writeHead(404).end();
  const to = url.searchParams.get('to')?.toLowerCase();
  const list = to ? mails.filter((m) => m.to.some((t) => t.toLowerCase() === to)) : mails;
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(list));
});
// A free port (fixed offsets collide with other e2e runs on the machine), published for mailsTo().
await new Promise<void>((resolve) => mailApi.listen(0, '127.0.0.1', resolve));
const mailApiFile = mailApiPortFile(config.port);
fs.writeFileSync(mailApiFile, String((mailApi.address() as { port: number }).port));
const stop = () =>
  void app.close().finally(() => {
    mailApi.close();
    fs.rmSync(mailApiFile, { force: true });
    smtp.server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
process.once('SIGINT', stop);
process.once('SIGTERM', stop);

/** Decodes a quoted-printable body (UTF-8) as nodemailer writes it. */
function decodeQuotedPrintable(body: string): string {
  const soft = body.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i++) {
    const hex = soft.slice(i + 1, i + 3);
    if (soft[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(soft[i], 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Starts the loopback SMTP sink; each mail lands in `mails` with its text and links. */
async function startSmtpSink(mails: E2EMail[]): Promise<{ server: SMTPServer; port: number }> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, cb) {
      let raw = '';
      stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
      stream.on('end', () => {
        const split = raw.search(/\r?\n\r?\n/);
        const head = raw.slice(0, split);
        const body = raw.slice(split).trim();
        const qp = /content-transfer-encoding:\s*quoted-printable/i.test(head);
        const b64 = /content-transfer-encoding:\s*base64/i.test(head);
        const text = qp ? decodeQuotedPrintable(body) : b64 ? Buffer.from(body, 'base64').toString('utf8') : body;
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          subject: /^subject:\s*(.*)$/im.exec(head)?.[1] ?? '',
          text,
          links: text.match(/https?:\/\/[^\s<>"]+/g) ?? [],
        });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.server.address() as { port: number }).port };
}
