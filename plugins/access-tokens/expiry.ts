import dayjs, { type Dayjs } from 'dayjs';

/** Expiry presets offered by the create drawer, in days from today (the slice's limit, one definition). */
export { EXPIRY_PRESET_DAYS } from './limits';
/** A token expiring within this many days is shown as about to expire. */
export const EXPIRING_SOON_DAYS = 7;

/** What a token's expiry means for the person now. */
export type TokenState = 'valid' | 'expiring' | 'expired';

/** The stored expiry for a chosen day: the end of that (local) day minus 2 seconds, as ISO time. */
export function expiresAtForDay(day: Dayjs | Date | string | number): string {
  return dayjs(day).endOf('day').subtract(2, 'second').toISOString();
}

/** The stored expiry for a preset of `days` days counted from `now`'s day. */
export function expiresAtForPreset(days: number, now: Dayjs | Date | number = Date.now()): string {
  return expiresAtForDay(dayjs(now).add(days, 'day'));
}

/** Valid, about to expire (within 7 days) or expired (the instant `expires_at` passes); no expiry = valid. */
export function tokenState(expiresAt: string | null | undefined, now: Date | number = Date.now()): TokenState {
  if (!expiresAt) return 'valid';
  const end = dayjs(expiresAt);
  const n = dayjs(now);
  if (!end.isAfter(n)) return 'expired';
  return end.diff(n, 'millisecond') <= EXPIRING_SOON_DAYS * 24 * 60 * 60 * 1000 ? 'expiring' : 'valid';
}
