// The two halves of the slider's day-key encryption: what the web's crypto-js encrypts, the service decrypts.
import { describe, expect, it } from 'vitest';
import { captchaKey, decryptCaptchaValue, encryptCaptchaValue } from '../../src/core/captcha/crypto';
import { acceptedDayKeys, dayKey, decryptDayKeyed, decryptWithPassphrase } from '../../server/services/captcha/day-key';
import { ManualClock } from '../../server/clock';
import type { SliderAnswer } from '../../schemas/captcha-rules';

const DAY = 86_400_000;
const MINUTE = 60_000;

const answer: SliderAnswer = {
  x: 123,
  track: [
    [0, 0, 0],
    [60, 2, 310],
    [123, -1, 720],
  ],
  kind: 'pointer',
  umid: 'f'.repeat(64),
};

describe('slider answer encryption: web (crypto-js) → service (node:crypto)', () => {
  it('derives the same key: the UTC date as YYYYMMDD, whatever the instant within the day', () => {
    for (const at of [
      Date.UTC(2026, 0, 1, 0, 0, 0),
      Date.UTC(2026, 0, 1, 23, 59, 59, 999),
      Date.UTC(2026, 11, 31, 12),
      Date.UTC(2028, 1, 29, 8),
    ]) {
      expect(dayKey(at)).toBe(captchaKey(at));
    }
    expect(captchaKey(Date.UTC(2026, 2, 9, 23, 30))).toBe('20260309');
  });

  it('decrypts on the service what the web encrypts, with the same clock', () => {
    const clock = new ManualClock(Date.UTC(2026, 4, 17, 13, 45));
    const now = () => clock.now().getTime();
    const cipher = encryptCaptchaValue(answer, now);
    expect(decryptDayKeyed(cipher, now())).toBe(JSON.stringify(answer));
    expect(decryptWithPassphrase(cipher, captchaKey(now()))).toBe(JSON.stringify(answer));
    // Strings go as they are, non-ASCII included; every call salts anew.
    const text = encryptCaptchaValue('滑块 ✓ x=42', now);
    expect(decryptDayKeyed(text, now())).toBe('滑块 ✓ x=42');
    expect(encryptCaptchaValue(answer, now)).not.toBe(cipher);
    // And the other way round: the web's own decryption reads it too (the test kit encrypts with `dayKey`).
    expect(decryptCaptchaValue(cipher, now())).toBe(JSON.stringify(answer));
  });

  it("refuses another day's key: null, never a garbled text", () => {
    const at = Date.UTC(2026, 4, 17, 13, 45);
    for (const other of [at + DAY, at - DAY, at + 30 * DAY]) {
      const cipher = encryptCaptchaValue(answer, () => other);
      expect(decryptDayKeyed(cipher, at)).toBeNull();
    }
    expect(
      decryptWithPassphrase(
        encryptCaptchaValue(answer, () => at),
        '20260518',
      ),
    ).toBeNull();
    expect(decryptDayKeyed('not a cipher', at)).toBeNull();
    expect(decryptDayKeyed('', at)).toBeNull();
  });

  it("accepts yesterday's key for 5 minutes after UTC midnight only", () => {
    const midnight = Date.UTC(2026, 4, 18);
    const cipher = encryptCaptchaValue(answer, () => midnight - 20_000);
    expect(acceptedDayKeys(midnight + MINUTE)).toEqual(['20260518', '20260517']);
    expect(decryptDayKeyed(cipher, midnight)).toBe(JSON.stringify(answer));
    expect(decryptDayKeyed(cipher, midnight + 5 * MINUTE - 1)).toBe(JSON.stringify(answer));
    expect(decryptDayKeyed(cipher, midnight + 5 * MINUTE)).toBeNull();
    expect(acceptedDayKeys(midnight + 5 * MINUTE)).toEqual(['20260518']);
    // Today's key keeps working through the grace period.
    expect(
      decryptDayKeyed(
        encryptCaptchaValue(answer, () => midnight + MINUTE),
        midnight + 2 * MINUTE,
      ),
    ).toBe(JSON.stringify(answer));
  });
});
