import { describe, expect, it } from 'vitest';
import { healthMarks, isStale } from './health-service';

const DAY = 24 * 3600 * 1000;
const NOW = Date.UTC(2026, 10, 27, 9);

describe('credential health marks', () => {
  it('count unused days from the last use, or from creation when never used, at the exact boundaries', () => {
    const made = (daysAgo: number) => NOW - daysAgo * DAY;
    expect(healthMarks({ createdAt: made(1), expiresAt: null, lastUse: null }, NOW)).toEqual(['never-used']);
    expect(healthMarks({ createdAt: made(30), expiresAt: null, lastUse: null }, NOW)).toEqual([
      'never-used',
      'unused-30',
    ]);
    expect(healthMarks({ createdAt: made(100), expiresAt: null, lastUse: { at: made(30) - 1 } }, NOW)).toEqual([
      'unused-30',
    ]);
    expect(healthMarks({ createdAt: made(100), expiresAt: null, lastUse: { at: made(30) + 1 } }, NOW)).toEqual([]);
    expect(healthMarks({ createdAt: made(100), expiresAt: null, lastUse: { at: made(90) } }, NOW)).toEqual([
      'unused-90',
    ]);
  });

  it('expiring within 7 days (not where a kind always ends within days), expired from the instant of expiry', () => {
    const used = { at: NOW - DAY };
    expect(healthMarks({ createdAt: NOW - 2 * DAY, expiresAt: NOW + 7 * DAY, lastUse: used }, NOW)).toEqual([
      'expiring',
    ]);
    expect(healthMarks({ createdAt: NOW - 2 * DAY, expiresAt: NOW + 7 * DAY + 1, lastUse: used }, NOW)).toEqual([]);
    expect(
      healthMarks({ createdAt: NOW - 2 * DAY, expiresAt: NOW + 60_000, lastUse: used }, NOW, { expiring: false }),
    ).toEqual([]);
    expect(healthMarks({ createdAt: NOW - 2 * DAY, expiresAt: NOW, lastUse: used }, NOW)).toEqual(['expired']);
  });

  it('stale is expired or unused 30 days and more; never used alone or expiring alone is not', () => {
    expect(isStale(['never-used'])).toBe(false);
    expect(isStale(['expiring'])).toBe(false);
    expect(isStale(['never-used', 'expiring'])).toBe(false);
    expect(isStale(['unused-30'])).toBe(true);
    expect(isStale(['unused-90'])).toBe(true);
    expect(isStale(['expired'])).toBe(true);
  });
});
