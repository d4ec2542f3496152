import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';

/** One outgoing mail. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** Sends mails; the transport (SMTP or outbox folder) is chosen once from the configuration. */
export interface Mailer {
  /** Where mails go, for logs and the start banner. */
  readonly kind: 'smtp' | 'outbox' | 'none';
  /** Sends one mail; resolves with its Message-ID (and the outbox file when there is no SMTP). */
  send(msg: MailMessage): Promise<{ messageId: string; file?: string }>;
  /** Releases pooled SMTP connections. */
  close(): void;
}

/** Minimal logger surface, so the mailer logs through the service's (redacting) logger. */
export interface MailLog {
  info(obj: object, msg: string): void;
}

/** Thrown by the mailer of an instance without a mail service (`SMTP_URL=off`). */
export class MailNotConfiguredError extends Error {
  constructor() {
    super('no mail service is configured (SMTP_URL=off)');
    this.name = 'MailNotConfiguredError';
  }
}

/** How to build a mailer: SMTP when smtpUrl is set, none when it is `off`, otherwise `.eml` files in `dataDir/outbox`. */
export interface MailerOptions {
  smtpUrl?: string;
  dataDir: string;
  from: string;
  log?: MailLog;
}

/** The sender of the service's mails: no-reply at the public host (localhost without PUBLIC_URL). */
export function senderAddress(publicUrl: string | undefined): string {
  return `no-reply@${publicUrl ? new URL(publicUrl).hostname : 'localhost'}`;
}

/** Builds the mailer; logs name the recipient and Message-ID, never the body (it may carry a code or link). */
export function createMailer(opts: MailerOptions): Mailer {
  const log = opts.log ?? { info: () => {} };
  if (opts.smtpUrl === 'off') {
    return {
      kind: 'none',
      send: () => Promise.reject(new MailNotConfiguredError()),
      close: () => {},
    };
  }
  if (opts.smtpUrl) {
    const transport: Transporter = nodemailer.createTransport(opts.smtpUrl);
    const host = new URL(opts.smtpUrl).host;
    return {
      kind: 'smtp',
      async send(msg) {
        const info = await transport.sendMail({ from: opts.from, ...msg });
        log.info({ mail: { to: msg.to, messageId: info.messageId, via: host } }, 'mail sent');
        return { messageId: info.messageId };
      },
      close: () => transport.close(),
    };
  }
  const outbox = path.join(opts.dataDir, 'outbox');
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  let seq = 0;
  return {
    kind: 'outbox',
    async send(msg) {
      const info = await transport.sendMail({ from: opts.from, ...msg });
      await fs.mkdir(outbox, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(outbox, `${stamp}-${process.pid}-${++seq}.eml`);
      await fs.writeFile(file, info.message as Buffer, { mode: 0o600 });
      log.info({ mail: { to: msg.to, messageId: info.messageId, file } }, 'mail written to outbox');
      return { messageId: info.messageId, file };
    },
    close: () => transport.close(),
  };
}
