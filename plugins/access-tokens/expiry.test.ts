import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { expiresAtForDay, expiresAtForPreset, tokenState } from './expiry';

describe('token expiry', () => {
  it('is the end of the chosen local day minus 2 seconds, as ISO time', () => {
    const iso = expiresAtForDay(new Date(2026, 4, 17, 9, 30));
    expect(iso).toBe(new Date(2026, 4, 17, 23, 59, 57, 999).toISOString());
    expect(iso).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('presets count days from today', () => {
    const now = new Date(2026, 0, 31, 23, 50);
    expect(expiresAtForPreset(7, now)).toBe(new Date(2026, 1, 7, 23, 59, 57, 999).toISOString());
    expect(expiresAtForPreset(30, now)).toBe(new Date(2026, 2, 2, 23, 59, 57, 999).toISOString());
    expect(dayjs(expiresAtForPreset(90, now)).diff(dayjs(now), 'day')).toBe(90);
  });

  it('states: valid, about to expire within 7 days, expired once now passes expires_at', () => {
    const now = Date.UTC(2026, 0, 1);
    const day = 24 * 3600 * 1000;
    expect(tokenState(null, now)).toBe('valid');
    expect(tokenState(new Date(now + 8 * day).toISOString(), now)).toBe('valid');
    expect(tokenState(new Date(now + 7 * day).toISOString(), now)).toBe('expiring');
    expect(tokenState(new Date(now + 1).toISOString(), now)).toBe('expiring');
    expect(tokenState(new Date(now).toISOString(), now)).toBe('expired');
    expect(tokenState(new Date(now - day).toISOString(), now)).toBe('expired');
  });
});
