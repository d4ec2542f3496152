import crypto from 'node:crypto';

/** A 24-hex-character id, the shape the suite uses for users, organisations and apps. */
export function newId(): string {
  return crypto.randomBytes(12).toString('hex');
}

/** URL-safe random secret of `bytes` bytes (32 bytes = 256 bits, well above the 128-bit floor). */
export function randomSecret(bytes = 32): string {
  return crypto.randomBytes(bytes).toString('base64url');
}

/** Hex SHA-256, used to store session ids and tokens so a database leak does not leak credentials. */
export function sha256(value: string): string {
  return crypto.createHash('sha256').update(value).digest('hex');
}

/** Constant-time string comparison for secrets sent by clients (CSRF tokens). */
export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && crypto.timingSafeEqual(ab, bb);
}
