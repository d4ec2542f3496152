import fs from 'node:fs';
import path from 'node:path';
import { listEditionIds, resolveEditionId } from './edition/loader';
import { parseCidr } from './services/organizations';
import { projectRoot } from './project-root';

export { projectRoot };

/** Everything the service reads from the environment, validated once at start. */
/** `SMTP_URL` value for an instance without any mail service. */
export const MAIL_OFF = 'off';

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
  /**
   * `smtp://host:port`; without it mails go to `DATA_DIR/outbox` as `.eml` files; `off` = the enterprise has no
   * mail service (what needs mail, like password recovery, says so).
   */
  smtpUrl?: string;
  /** Public base URL (links in mails, Secure cookies when https, allowed redirect host). */
  publicUrl?: string;
  /** Folder holding the built editions (`<distDir>/<edition>/index.html`). */
  distDir: string;
  /** Folder holding the edition manifests. */
  editionsDir: string;
  /**
   * `TRUST_PROXY`: the reverse proxies (addresses, CIDRs, or `loopback` / `linklocal` / `uniquelocal`) whose
   * `X-Forwarded-For` names the client. Unset = the socket address is the client, so a client cannot forge the
   * address the organisation IP whitelists check. Canonical entries (e.g. `10.0.0.0/8`), fed to Fastify's
   * `trustProxy`.
   */
  trustProxy?: string[];
  /**
   * `GEOIP_DATABASE`: a local MaxMind DB file (GeoLite2/GeoIP2 City or Country, `.mmdb`) the security page names a
   * session's approximate place from; read at start, never updated nor fetched by the service. Unset: no place.
   */
  geoipDatabase?: string;
  /**
   * `IPV6_PREFIX_LENGTH` (default 64, 32 to 128): limits and throttles keyed by the client address count an IPv6
   * client by its network of this many bits, since one client usually holds a whole /64 and could take a fresh
   * address for every request; IPv4 clients are counted by their own address (/32). 128 counts each IPv6 address
   * apart. Absent (a hand-made configuration): 64.
   */
  ipv6PrefixLength?: number;
  /**
   * `AVATAR_STORAGE_MB` (default 1024): the most the stored avatars may take together, in bytes; an upload that
   * would go over it is refused with its own error. Absent (a hand-made configuration): the default.
   */
  avatarStorageBytes?: number;
  /**
   * `REAUTH_WINDOW_MINUTES` (default 10, 1 to 720): how long a proof (a sign-in, a password given again) lets a
   * session make sensitive changes (password, e-mail, new credentials, ending sessions) before it must prove again.
   * Absent (a hand-made configuration): the default.
   */
  reauthWindowMinutes?: number;
  /**
   * `SECOND_FACTOR_KEY`: the 32-byte key (64 hex digits, or base64/base64url) that seals authenticator-app secrets
   * at rest and keys the recovery codes' hashes. Unset: `DATA_DIR/second-factor.key`, made on first start (mode
   * 0600). Several instances must share one key. Never stored in the database, never logged.
   */
  secondFactorKey?: Buffer;
  /**
   * `WEBAUTHN_USER_VERIFICATION` (default `preferred`): whether passkeys must verify their user (PIN, biometrics):
   * `required` refuses an assertion without it, `preferred` asks but accepts a second factor without it, `discouraged`
   * does not ask. A passkey sign-in without a password needs it unless `discouraged`.
   */
  webauthnUserVerification?: WebauthnUserVerification;
  /**
   * `INTERNAL_API_SECRET` (at least 32 characters): what the suite's front doors (the git gate started by sshd, the
   * artifact proxy's `auth_request`) present in `x-internal-secret` to reach `/internal/` (issue 42). Unset: the
   * internal API answers 404 to everyone. Never logged.
   */
  internalApiSecret?: string;
}

/** What WEBAUTHN_USER_VERIFICATION may say (WebAuthn's UserVerificationRequirement). */
export type WebauthnUserVerification = 'required' | 'preferred' | 'discouraged';
/** The user verification passkeys are asked for unless WEBAUTHN_USER_VERIFICATION says otherwise. */
export const DEFAULT_WEBAUTHN_USER_VERIFICATION: WebauthnUserVerification = 'preferred';

/** A 32-byte key given as 64 hex digits or as base64 / base64url (padding optional); null when it is not one. */
export function parseKey32(raw: string): Buffer | null {
  const s = raw.trim();
  if (/^[0-9a-fA-F]{64}$/.test(s)) return Buffer.from(s, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(s)) {
    const b = Buffer.from(s.replace(/\+/g, '-').replace(/\//g, '_').replace(/=$/, ''), 'base64url');
    return b.length === 32 ? b : null;
  }
  return null;
}

/** The shortest INTERNAL_API_SECRET accepted (a guessable secret would open the internal API). */
export const INTERNAL_API_SECRET_MIN = 32;

/** The avatars' storage budget unless AVATAR_STORAGE_MB says otherwise (1 GiB). */
export const DEFAULT_AVATAR_STORAGE_BYTES = 1024 * 1024 * 1024;

/** How long a proof holds unless REAUTH_WINDOW_MINUTES says otherwise. */
export const DEFAULT_REAUTH_WINDOW_MINUTES = 10;
/** The longest window REAUTH_WINDOW_MINUTES may set: no session lives longer (12 hours). */
export const MAX_REAUTH_WINDOW_MINUTES = 720;

/** The IPv6 network an address's limits count by, unless IPV6_PREFIX_LENGTH says otherwise. */
export const DEFAULT_IPV6_PREFIX_LENGTH = 64;

/** Raised when the environment is invalid; the message lists every problem with the variable name. */
export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

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
  if (smtpUrl !== undefined && smtpUrl !== MAIL_OFF) {
    const u = safeUrl(smtpUrl);
    if (!u || !['smtp:', 'smtps:'].includes(u.protocol) || !u.hostname) {
      problems.push(`SMTP_URL must look like smtp://host:port or smtps://user:pass@host:port, or be "${MAIL_OFF}"`);
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

  let trustProxy: string[] | undefined;
  const rawTrust = str('TRUST_PROXY');
  if (rawTrust !== undefined) {
    const parsed = parseTrustProxy(rawTrust);
    if (typeof parsed === 'string') problems.push(parsed);
    else trustProxy = parsed;
  }

  const rawGeoip = str('GEOIP_DATABASE');
  const geoipDatabase = rawGeoip === undefined ? undefined : path.resolve(rawGeoip);
  if (geoipDatabase !== undefined && !isReadableFile(geoipDatabase))
    problems.push(`GEOIP_DATABASE must name a readable MaxMind DB (.mmdb) file, got "${rawGeoip}"`);

  let ipv6PrefixLength = DEFAULT_IPV6_PREFIX_LENGTH;
  const rawPrefix = str('IPV6_PREFIX_LENGTH');
  if (rawPrefix !== undefined) {
    ipv6PrefixLength = Number(rawPrefix);
    if (!/^\d+$/.test(rawPrefix) || ipv6PrefixLength < 32 || ipv6PrefixLength > 128)
      problems.push(`IPV6_PREFIX_LENGTH must be an integer between 32 and 128, got "${rawPrefix}"`);
  }

  let avatarStorageBytes = DEFAULT_AVATAR_STORAGE_BYTES;
  const rawAvatarStorage = str('AVATAR_STORAGE_MB');
  if (rawAvatarStorage !== undefined) {
    avatarStorageBytes = Number(rawAvatarStorage) * 1024 * 1024;
    if (!/^\d+$/.test(rawAvatarStorage) || Number(rawAvatarStorage) < 1)
      problems.push(`AVATAR_STORAGE_MB must be a whole number of megabytes, at least 1, got "${rawAvatarStorage}"`);
  }

  let reauthWindowMinutes = DEFAULT_REAUTH_WINDOW_MINUTES;
  const rawReauth = str('REAUTH_WINDOW_MINUTES');
  if (rawReauth !== undefined) {
    reauthWindowMinutes = Number(rawReauth);
    if (!/^\d+$/.test(rawReauth) || reauthWindowMinutes < 1 || reauthWindowMinutes > MAX_REAUTH_WINDOW_MINUTES)
      problems.push(
        `REAUTH_WINDOW_MINUTES must be a whole number of minutes between 1 and ${MAX_REAUTH_WINDOW_MINUTES}, got "${rawReauth}"`,
      );
  }

  let secondFactorKey: Buffer | undefined;
  const rawFactorKey = str('SECOND_FACTOR_KEY');
  if (rawFactorKey !== undefined) {
    secondFactorKey = parseKey32(rawFactorKey) ?? undefined;
    // The value is a secret: the message never repeats it.
    if (!secondFactorKey)
      problems.push(
        'SECOND_FACTOR_KEY must be 32 bytes as 64 hex digits or base64 (e.g. the output of `openssl rand -base64 32`)',
      );
  }

  let webauthnUserVerification = DEFAULT_WEBAUTHN_USER_VERIFICATION;
  const rawUv = str('WEBAUTHN_USER_VERIFICATION');
  if (rawUv !== undefined) {
    if (rawUv === 'required' || rawUv === 'preferred' || rawUv === 'discouraged') webauthnUserVerification = rawUv;
    else problems.push(`WEBAUTHN_USER_VERIFICATION must be required, preferred or discouraged, got "${rawUv}"`);
  }

  const internalApiSecret = str('INTERNAL_API_SECRET');
  // A secret: the message never repeats it.
  if (internalApiSecret !== undefined && internalApiSecret.length < INTERNAL_API_SECRET_MIN)
    problems.push(`INTERNAL_API_SECRET must be at least ${INTERNAL_API_SECRET_MIN} characters (e.g. openssl rand -hex 32)`);

  if (problems.length) throw new ConfigError(problems);
  return {
    port,
    host,
    edition,
    dataDir,
    databaseUrl,
    smtpUrl,
    publicUrl,
    distDir,
    editionsDir,
    trustProxy,
    geoipDatabase,
    ipv6PrefixLength,
    avatarStorageBytes,
    reauthWindowMinutes,
    secondFactorKey,
    webauthnUserVerification,
    internalApiSecret,
  };
}

/** True for a file the service can open for reading. */
function isReadableFile(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.R_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Names proxy-addr (behind Fastify's `trustProxy`) understands for whole address families. */
const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** `TRUST_PROXY`'s comma list as canonical entries, or the problem naming every bad entry. */
export function parseTrustProxy(raw: string): string[] | string {
  const entries = raw
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const out: string[] = [];
  const bad: string[] = [];
  for (const e of entries) {
    if (PROXY_NAMES.includes(e.toLowerCase())) {
      out.push(e.toLowerCase());
      continue;
    }
    const p = parseCidr(e);
    if (p.ok) out.push(p.cidr);
    else bad.push(`"${e}" (${p.reason})`);
  }
  if (bad.length) {
    return `TRUST_PROXY must be a comma list of proxy addresses, CIDRs or ${PROXY_NAMES.join('/')}: ${bad.join(', ')}`;
  }
  return out;
}

function safeUrl(s: string): URL | undefined {
  try {
    return new URL(s);
  } catch {
    return undefined;
  }
}
