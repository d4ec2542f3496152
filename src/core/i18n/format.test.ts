import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { afterEach, describe, expect, it } from 'vitest';
import {
  RELATIVE_TIME_THRESHOLDS,
  formatCalendar,
  formatDate,
  formatDateTime,
  formatFullDateTime,
  formatNumber,
  formatRelativeTime,
  relativeTimeParts,
} from './format';
import en from '../messages/en_US.json';
import zh from '../messages/zh_CN.json';

// Local-time constructors keep the tests independent of the machine's timezone.
const at = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0) => new Date(y, mo - 1, d, h, mi, s);
const tEn = (id: string) => (en as Record<string, string>)[id];
const tZh = (id: string) => (zh as Record<string, string>)[id];

afterEach(() => {
  dayjs.locale('en');
});

describe('date formats', () => {
  it('formats YYYY-MM-DD and YYYY-MM-DD HH:mm', () => {
    expect(formatDate(at(2024, 1, 2, 3, 4, 5))).toBe('2024-01-02');
    expect(formatDateTime(at(2024, 1, 2, 15, 4, 5))).toBe('2024-01-02 15:04');
    expect(formatDateTime(at(2024, 1, 2, 15, 4, 5).getTime())).toBe('2024-01-02 15:04');
  });

  it('shows a dash for empty or invalid values', () => {
    for (const v of [undefined, null, '', 'not a date']) {
      expect(formatDate(v)).toBe('-');
      expect(formatDateTime(v)).toBe('-');
      expect(formatFullDateTime(v, 'zh_CN')).toBe('-');
      expect(formatCalendar(v, tEn)).toBe('-');
      expect(formatRelativeTime(v, 'en_US')).toBe('-');
    }
  });

  it('shows YYYY-MM-DD HH:mm:ss in Chinese and a long format in English, whatever the global dayjs locale', () => {
    dayjs.locale('zh-cn');
    const d = at(2024, 1, 2, 15, 4, 5);
    expect(formatFullDateTime(d, 'zh_CN')).toBe('2024-01-02 15:04:05');
    expect(formatFullDateTime(d, 'en_US')).toBe('January 2, 2024 3:04:05 PM');
  });
});

describe('calendar labels', () => {
  const now = at(2024, 3, 10, 12, 0, 0);
  it('labels yesterday, today and tomorrow with the time', () => {
    expect(formatCalendar(at(2024, 3, 10, 0, 5), tEn, now)).toBe('Today 00:05');
    expect(formatCalendar(at(2024, 3, 9, 23, 59), tEn, now)).toBe('Yesterday 23:59');
    expect(formatCalendar(at(2024, 3, 11, 8, 30), tEn, now)).toBe('Tomorrow 08:30');
    expect(formatCalendar(at(2024, 3, 9, 8, 30), tZh, now)).toBe('昨天 08:30');
  });
  it('falls back to YYYY-MM-DD HH:mm further away, across month boundaries too', () => {
    expect(formatCalendar(at(2024, 3, 8, 23, 59), tEn, now)).toBe('2024-03-08 23:59');
    expect(formatCalendar(at(2024, 3, 12, 0, 0), tEn, now)).toBe('2024-03-12 00:00');
    expect(formatCalendar(at(2024, 2, 29, 22, 0), tEn, at(2024, 3, 1, 1, 0))).toBe('Yesterday 22:00');
  });
});

describe('relative time thresholds (60 s, 60 min, 24 h, 30 d, 12 mo)', () => {
  const now = at(2024, 6, 15, 12, 0, 0);
  const ago = (ms: number) => new Date(now.getTime() - ms);
  const S = 1000;
  const M = 60 * S;
  const H = 60 * M;
  const D = 24 * H;

  it('exposes the thresholds', () => {
    expect(RELATIVE_TIME_THRESHOLDS).toEqual({ second: 60, minute: 60, hour: 24, day: 30, month: 12 });
  });

  it('switches unit exactly at each threshold', () => {
    expect(relativeTimeParts(ago(59 * S), now)).toEqual({ value: -59, unit: 'second' });
    expect(relativeTimeParts(ago(60 * S), now)).toEqual({ value: -1, unit: 'minute' });
    expect(relativeTimeParts(ago(59 * M), now)).toEqual({ value: -59, unit: 'minute' });
    expect(relativeTimeParts(ago(60 * M), now)).toEqual({ value: -1, unit: 'hour' });
    expect(relativeTimeParts(ago(23 * H), now)).toEqual({ value: -23, unit: 'hour' });
    expect(relativeTimeParts(ago(24 * H), now)).toEqual({ value: -1, unit: 'day' });
    expect(relativeTimeParts(ago(29 * D), now)).toEqual({ value: -29, unit: 'day' });
    expect(relativeTimeParts(ago(30 * D), now)).toEqual({ value: -1, unit: 'month' });
    expect(relativeTimeParts(at(2023, 7, 15, 12), now)).toEqual({ value: -11, unit: 'month' });
    expect(relativeTimeParts(at(2023, 6, 15, 12), now)).toEqual({ value: -1, unit: 'year' });
    expect(relativeTimeParts(new Date(now.getTime() + 5 * M), now)).toEqual({ value: 5, unit: 'minute' });
  });

  it('words it in the app locale', () => {
    expect(formatRelativeTime(ago(5 * M), 'en_US', now)).toBe('5 minutes ago');
    expect(formatRelativeTime(ago(5 * M), 'zh_CN', now)).toBe('5分钟前');
    expect(formatRelativeTime(new Date(now.getTime() + 2 * H), 'en_US', now)).toBe('in 2 hours');
    expect(formatRelativeTime(now, 'en_US', now)).toBe('0 seconds ago');
  });
});

describe('number grouping', () => {
  it('groups thousands by 3', () => {
    expect(formatNumber(0)).toBe('0');
    expect(formatNumber(999)).toBe('999');
    expect(formatNumber(1000)).toBe('1,000');
    expect(formatNumber(1234567)).toBe('1,234,567');
    expect(formatNumber(-1234567.891)).toBe('-1,234,567.891');
    expect(formatNumber('9876543210')).toBe('9,876,543,210');
    expect(formatNumber(1e21)).toBe('1,000,000,000,000,000,000,000');
    expect(formatNumber(1e-7)).toBe('0.0000001');
    expect(formatNumber(' 1234 ')).toBe('1,234');
  });
  it('shows a dash for empty or non-numeric values', () => {
    expect(formatNumber(undefined)).toBe('-');
    expect(formatNumber('')).toBe('-');
    expect(formatNumber('abc')).toBe('-');
    expect(formatNumber(Number.NaN)).toBe('-');
  });
});
