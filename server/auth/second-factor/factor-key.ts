import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseKey32 } from '../../config';

/** The key file made in DATA_DIR when SECOND_FACTOR_KEY is unset (one-command runs need no configuration). */
export const FACTOR_KEY_FILE = 'second-factor.key';

/**
 * The second factor's keys, derived from one 32-byte master key (SECOND_FACTOR_KEY or the key file) with HKDF, so
 * the sealing key and the hashing key are never the same bytes. Never stored in the database, never logged.
 */
export interface FactorKeys {
  /** Seals and opens the authenticator app's secret (AES-256-GCM). */
  seal: Buffer;
  /** Keys the recovery codes' hashes (HMAC-SHA256). */
  recovery: Buffer;
  /** A short public digest of the master key: instances of one database compare it to find a key that differs. */
  check: string;
}

/**
 * The master key: the configured one, else the key file in `dataDir`, made on first start with mode 0600 (exclusive
 * create: instances starting together end with the one file). A file that is not a key stops the start.
 */
export function loadFactorKey(config: { secondFactorKey?: Buffer; dataDir: string }): Buffer {
  if (config.secondFactorKey) return config.secondFactorKey;
  const file = path.join(config.dataDir, FACTOR_KEY_FILE);
  fs.mkdirSync(config.dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, `${crypto.randomBytes(32).toString('base64url')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  const key = parseKey32(fs.readFileSync(file, 'utf8'));
  if (!key) throw new Error(`${file} does not hold a 32-byte key (64 hex digits or base64); set SECOND_FACTOR_KEY`);
  return key;
}

/** The keys derived from the master key. */
export function deriveFactorKeys(master: Buffer): FactorKeys {
  const derive = (info: string) => Buffer.from(crypto.hkdfSync('sha256', master, Buffer.alloc(0), info, 32));
  return {
    seal: derive('second-factor/seal/v1'),
    recovery: derive('second-factor/recovery-codes/v1'),
    check: derive('second-factor/check/v1').subarray(0, 12).toString('base64url'),
  };
}

const SEALED_PREFIX = 'v1.';

/**
 * Seals a secret of an account: AES-256-GCM with a random 96-bit nonce, the account id as associated data (a sealed
 * secret copied to another account's row does not open). `v1.` + base64url(nonce | ciphertext | tag).
 */
export function sealSecret(key: Buffer, userId: string, secret: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(userId, 'utf8'));
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return SEALED_PREFIX + Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
}

/** Opens what `sealSecret` sealed for this account; null when it does not open (another key, another account). */
export function openSecret(key: Buffer, userId: string, sealed: string): string | null {
  if (!sealed.startsWith(SEALED_PREFIX)) return null;
  const raw = Buffer.from(sealed.slice(SEALED_PREFIX.length), 'base64url');
  if (raw.length < 12 + 16 + 1) return null;
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(userId, 'utf8'));
    decipher.setAuthTag(raw.subarray(raw.length - 16));
    return Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
