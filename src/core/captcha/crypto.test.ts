import AES from 'crypto-js/aes';
import Utf8 from 'crypto-js/enc-utf8';
import { afterEach, describe, expect, it } from 'vitest';
import { captchaKey, decryptCaptchaValue, encryptCaptchaValue } from './crypto';

const originalTz = process.env.TZ;
afterEach(() => {
  if (originalTz === undefined) delete process.env.TZ;
  else process.env.TZ = originalTz;
});

describe('captcha key', () => {
  it('is the UTC date as YYYYMMDD', () => {
    expect(captchaKey(Date.parse('2024-03-05T10:00:00Z'))).toBe('20240305');
    expect(captchaKey(new Date('2024-12-31T12:00:00Z'))).toBe('20241231');
  });

  it('changes exactly at the UTC day boundary', () => {
    expect(captchaKey(Date.parse('2024-03-05T23:59:59.999Z'))).toBe('20240305');
    expect(captchaKey(Date.parse('2024-03-06T00:00:00.000Z'))).toBe('20240306');
    expect(captchaKey(Date.parse('2024-12-31T23:59:59.999Z'))).toBe('20241231');
    expect(captchaKey(Date.parse('2025-01-01T00:00:00.000Z'))).toBe('20250101');
  });

  it('does not depend on the local timezone', () => {
    const t = Date.parse('2024-03-05T20:00:00Z'); // already 6 March in Shanghai, still 5 March in UTC
    for (const tz of ['Asia/Shanghai', 'America/Los_Angeles', 'Pacific/Kiritimati', 'UTC']) {
      process.env.TZ = tz;
      expect(captchaKey(t)).toBe('20240305');
    }
    process.env.TZ = 'Asia/Shanghai';
    expect(new Date(t).getDate()).toBe(6); // proves the zone switch took effect
  });
});

describe('captcha value encryption', () => {
  it("encrypts with today's UTC key, decryptable with crypto-js and the same key", () => {
    const now = Date.parse('2024-03-05T23:59:59.999Z');
    const cipher = encryptCaptchaValue({ x: 123, track: [1, 2] }, () => now);
    expect(cipher).toMatch(/^U2FsdGVkX1/); // OpenSSL "Salted__" in base64
    expect(JSON.parse(AES.decrypt(cipher, '20240305').toString(Utf8))).toEqual({ x: 123, track: [1, 2] });
    expect(decryptCaptchaValue(cipher, now)).toBe('{"x":123,"track":[1,2]}');
  });

  it('is not readable with the next day key', () => {
    const cipher = encryptCaptchaValue('sign-value', () => Date.parse('2024-03-05T23:59:59.999Z'));
    expect(decryptCaptchaValue(cipher, Date.parse('2024-03-05T00:00:00.000Z'))).toBe('sign-value');
    expect(decryptCaptchaValue(cipher, Date.parse('2024-03-06T00:00:00.000Z'))).not.toBe('sign-value');
  });

  it('salts each encryption', () => {
    const clock = () => Date.parse('2024-03-05T10:00:00Z');
    expect(encryptCaptchaValue('v', clock)).not.toBe(encryptCaptchaValue('v', clock));
  });
});
