// One real SMTP sink on loopback for every test that needs the service's mail (HTTP tests, e2e service).
import { SMTPServer } from 'smtp-server';

/** One mail as the sink received it: envelope, raw message, and the decoded text body with its links. */
export interface SinkMail {
  /** Envelope sender (MAIL FROM). */
  from: string;
  /** Envelope recipients (RCPT TO). */
  to: string[];
  /** The Subject header. */
  subject: string;
  /** The message as sent (headers and encoded body), for assertions on headers such as Message-ID. */
  raw: string;
  /** The body decoded (quoted-printable or base64 undone), as a reader sees it. */
  text: string;
  /** The http(s) links in the decoded body, in order. */
  links: string[];
}

/** A running sink: point the service's SMTP_URL at `url`, read `mails`, wait for one with `waitFor`. */
export interface SmtpSink {
  port: number;
  /** `smtp://127.0.0.1:<port>`, the value for SMTP_URL. */
  url: string;
  /** Every mail received so far, oldest first (tests may empty it: `mails.length = 0`). */
  mails: SinkMail[];
  /** Resolves with the first mail (already received or arriving) addressed to `to`; rejects after `timeoutMs`. */
  waitFor(to: string, timeoutMs?: number): Promise<SinkMail>;
  close(): Promise<void>;
}

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

/** Splits a single-part message into its fields (the service sends plain-text mails). */
function parseMail(raw: string, from: string, to: string[]): SinkMail {
  const split = raw.search(/\r?\n\r?\n/);
  const head = split < 0 ? raw : raw.slice(0, split);
  const body = split < 0 ? '' : raw.slice(split).trim();
  const qp = /content-transfer-encoding:\s*quoted-printable/i.test(head);
  const b64 = /content-transfer-encoding:\s*base64/i.test(head);
  const text = qp ? decodeQuotedPrintable(body) : b64 ? Buffer.from(body, 'base64').toString('utf8') : body;
  return {
    from,
    to,
    subject: /^subject:\s*(.*)$/im.exec(head)?.[1] ?? '',
    raw,
    text,
    links: text.match(/https?:\/\/[^\s<>"]+/g) ?? [],
  };
}

/** Starts the sink on a free loopback port (no TLS, any or no authentication). */
export async function startSmtpSink(): Promise<SmtpSink> {
  const mails: SinkMail[] = [];
  const waiters = new Set<(mail: SinkMail) => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, cb) {
      let raw = '';
      stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
      stream.on('end', () => {
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        const mail = parseMail(
          raw,
          from,
          session.envelope.rcptTo.map((r) => r.address),
        );
        mails.push(mail);
        for (const w of [...waiters]) w(mail);
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  const addressedTo = (mail: SinkMail, to: string) => mail.to.some((t) => t.toLowerCase() === to.toLowerCase());
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    mails,
    waitFor(to, timeoutMs = 5000) {
      const already = mails.find((m) => addressedTo(m, to));
      if (already) return Promise.resolve(already);
      return new Promise<SinkMail>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`no mail to ${to} within ${timeoutMs} ms`));
        }, timeoutMs);
        const waiter = (mail: SinkMail) => {
          if (!addressedTo(mail, to)) return;
          clearTimeout(timer);
          waiters.delete(waiter);
          resolve(mail);
        };
        waiters.add(waiter);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
