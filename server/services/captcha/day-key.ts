import crypto from 'node:crypto';
import { SLIDER_KEY_GRACE_MS } from '../../../schemas/captcha-rules';

/** The day key of a moment: its UTC date as YYYYMMDD (what the browser's src/core/captcha uses). */
export function dayKey(at: number): string {
  return new Date(at).toISOString().slice(0, 10).replaceAll('-', '');
}

/** The keys an answer sent at `now` may use: today's, and yesterday's for a few minutes after UTC midnight. */
export function acceptedDayKeys(now: number): string[] {
  const keys = [dayKey(now)];
  if (now % 86_400_000 < SLIDER_KEY_GRACE_MS) keys.push(dayKey(now - 86_400_000));
  return keys;
}

/** OpenSSL's EVP_BytesToKey with MD5 and one round: the key derivation of crypto-js's passphrase mode. */
function bytesToKey(passphrase: Buffer, salt: Buffer): { key: Buffer; iv: Buffer } {
  const parts: Buffer[] = [];
  let prev = Buffer.alloc(0);
  while (Buffer.concat(parts).length < 48) {
    prev = crypto
      .createHash('md5')
      .update(Buffer.concat([prev, passphrase, salt]))
      .digest();
    parts.push(prev);
  }
  const all = Buffer.concat(parts);
  return { key: all.subarray(0, 32), iv: all.subarray(32, 48) };
}

/**
 * Decrypts what the browser's crypto-js `AES.encrypt(text, passphrase)` produced (base64 of `Salted__` + salt +
 * AES-256-CBC ciphertext); null when the passphrase is wrong or the text is not such a cipher.
 */
export function decryptWithPassphrase(cipherText: string, passphrase: string): string | null {
  const raw = Buffer.from(cipherText, 'base64');
  if (raw.length < 32 || raw.subarray(0, 8).toString('latin1') !== 'Salted__' || (raw.length - 16) % 16 !== 0)
    return null;
  const { key, iv } = bytesToKey(Buffer.from(passphrase, 'utf8'), raw.subarray(8, 16));
  try {
    const d = crypto.createDecipheriv('aes-256-cbc', key, iv);
    const text = Buffer.concat([d.update(raw.subarray(16)), d.final()]);
    const s = text.toString('utf8');
    // A wrong key can still unpad by chance; its plaintext is then not valid UTF-8 text.
    return Buffer.from(s, 'utf8').equals(text) ? s : null;
  } catch {
    return null;
  }
}

/** Decrypts an answer with the first accepted day key that opens it; null when none does. */
export function decryptDayKeyed(cipherText: string, now: number): string | null {
  for (const k of acceptedDayKeys(now)) {
    const text = decryptWithPassphrase(cipherText, k);
    if (text !== null) return text;
  }
  return null;
}
