import AES from 'crypto-js/aes';
import Utf8 from 'crypto-js/enc-utf8';

/** The injected clock: returns the current time in ms (Date.now in the app, fixed in tests). */
export type Clock = () => number;

/** Today's key: the current UTC date as YYYYMMDD, so client and server agree whatever the user's timezone. */
export function captchaKey(now: number | Date = Date.now()): string {
  const d = new Date(now);
  const y = String(d.getUTCFullYear()).padStart(4, '0');
  const m = String(d.getUTCMonth() + 1).padStart(2, '0');
  const day = String(d.getUTCDate()).padStart(2, '0');
  return `${y}${m}${day}`;
}

/**
 * Encrypts a slider or sign value with the day key. Scheme: crypto-js AES passphrase mode
 * (OpenSSL `Salted__` + EVP_BytesToKey/MD5 → AES-256-CBC, PKCS#7), base64 — what the service decrypts.
 * Objects are JSON-encoded first.
 */
export function encryptCaptchaValue(value: unknown, clock: Clock = Date.now): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return AES.encrypt(text, captchaKey(clock())).toString();
}

/** Decrypts with the key of the given time; '' when the key (day) does not match. For tests and tooling. */
export function decryptCaptchaValue(cipher: string, now: number | Date = Date.now()): string {
  try {
    return AES.decrypt(cipher, captchaKey(now)).toString(Utf8);
  } catch {
    return '';
  }
}
