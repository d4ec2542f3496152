import path from 'node:path';
import { listEditionIds, resolveEditionId } from './edition/loader';

/** Everything the service reads from the environment, validated once at start. */
export interface AppConfig {
  /** TCP port to listen on. */
  port: number;
  /** Interface to bind; loopback by default so a dev machine is not exposed. */
  host: string;
  /** Edition served (`dist/<edition>/`), already resolved to one that exists. */
  edition: string;
  /** Folder for the SQLite file, the mail outbox and uploads. */
  dataDir: string;
  /** A `postgres://` URL switches from the embedded SQLite file to PostgreSQL. */
  databaseUrl?: string;
  /** `smtp://host:port`; without it mails go to `DATA_DIR/outbox` as `.eml` files. */
  smtpUrl?: string;
  /** Public base URL (links in mails, Secure cookies when https, allowed redirect host). */
  publicUrl?: string;
  /** Folder holding the built editions (`<distDir>/<edition>/index.html`). */
  distDir: string;
  /** Folder holding the edition manifests. */
  editionsDir: string;
}

/** Raised when the environment is invalid; the message lists every problem with the variable name. */
export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Where the checkout lives, so defaults do not depend on the caller's working directory for code paths. */
export const projectRoot = path.resolve(import.meta.dirname, '..');

/** Reads and validates the configuration; unknown editions fall back to `vpc` through `warn`. */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  warn: (msg: string) => void = (m) => console.warn(`warning: ${m}`),
): AppConfig {
  const problems: string[] = [];
  const str = (name: string): string | undefined => {
    const v = env[name];
    return v === undefined || v.trim() === '' ? undefined : v.trim();
  };

  let port = 3000;
  const rawPort = str('PORT');
  if (rawPort !== undefined) {
    port = Number(rawPort);
    if (!/^\d+$/.test(rawPort) || port < 0 || port > 65535) {
      problems.push(`PORT must be an integer between 0 and 65535, got "${rawPort}"`);
    }
  }

  const host = str('HOST') ?? '127.0.0.1';
  if (!/^[A-Za-z0-9.:\-[\]]+$/.test(host)) problems.push(`HOST must be a host name or IP address, got "${host}"`);

  const editionsDir = path.resolve(str('EDITIONS_DIR') ?? path.join(projectRoot, 'editions'));
  let edition = 'vpc';
  try {
    edition = resolveEditionId(str('EDITION'), listEditionIds(editionsDir), warn);
  } catch (e) {
    problems.push(`EDITIONS_DIR "${editionsDir}" is not readable: ${(e as Error).message}`);
  }

  const dataDir = path.resolve(str('DATA_DIR') ?? './data');
  const distDir = path.resolve(str('DIST_DIR') ?? path.join(projectRoot, 'dist'));

  const databaseUrl = str('DATABASE_URL');
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\/.+/.test(databaseUrl)) {
    problems.push(
      'DATABASE_URL must be a postgres:// or postgresql:// URL (leave it unset for the embedded SQLite file)',
    );
  }

  const smtpUrl = str('SMTP_URL');
  if (smtpUrl !== undefined) {
    const u = safeUrl(smtpUrl);
    if (!u || !['smtp:', 'smtps:'].includes(u.protocol) || !u.hostname) {
      problems.push('SMTP_URL must look like smtp://host:port or smtps://user:pass@host:port');
    }
  }

  let publicUrl = str('PUBLIC_URL');
  if (publicUrl !== undefined) {
    const u = safeUrl(publicUrl);
    if (!u || !['http:', 'https:'].includes(u.protocol)) {
      problems.push(`PUBLIC_URL must be an http(s) URL, got "${publicUrl}"`);
    } else {
      publicUrl = publicUrl.replace(/\/+$/, '');
    }
  }

  if (problems.length) throw new ConfigError(problems);
  return { port, host, edition, dataDir, databaseUrl, smtpUrl, publicUrl, distDir, editionsDir };
}

function safeUrl(s: string): URL | undefined {
  try {
    return new URL(s);
  } catch {
    return undefined;
  }
}
