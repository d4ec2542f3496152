import dayjs, { type Dayjs } from 'dayjs';
import type { Locale } from '../edition';
import { localeTag } from './locale';

/** Date-only format used in lists and pickers. */
export const DATE_FORMAT = 'YYYY-MM-DD';
/** Time-of-day format appended to dates and calendar labels. */
export const TIME_FORMAT = 'HH:mm';
/** Date plus time, the default for timestamps. */
export const DATE_TIME_FORMAT = `${DATE_FORMAT} ${TIME_FORMAT}`;
/** Full timestamp in Chinese. */
export const ZH_FULL_FORMAT = 'YYYY-MM-DD HH:mm:ss';
/** Full timestamp in English: the long, spelled-out form. */
export const EN_FULL_FORMAT = 'MMMM D, YYYY h:mm:ss A';
/** What empty or unparseable dates and numbers show. */
export const EMPTY_PLACEHOLDER = '-';
/** Units grow at these counts: 60 s → minutes, 60 min → hours, 24 h → days, 30 d → months, 12 mo → years. */
export const RELATIVE_TIME_THRESHOLDS = { second: 60, minute: 60, hour: 24, day: 30, month: 12 } as const;
/** Digits per thousands group. */
export const THOUSANDS_GROUP_SIZE = 3;

/** Anything a date field may hold. */
export type DateInput = string | number | Date | Dayjs | null | undefined;
/** The injected "now": a timestamp or a Date; defaults to the real clock. */
export type NowInput = number | Date;
/** Translates a message id; e.g. `(id) => intl.formatMessage({ id })`. */
export type Translate = (id: string) => string;

/** Parses a date input; null for empty or invalid so every formatter shows the dash. */
export function toDayjs(value: DateInput): Dayjs | null {
  if (value === null || value === undefined || value === '') return null;
  const d = dayjs(value);
  if (!d.isValid()) return null;
  return d;
}

/** The injected "now" as a date. */
const nowDayjs = (now: NowInput) => dayjs(now);

/** YYYY-MM-DD, or '-' when empty. */
export function formatDate(value: DateInput): string {
  return toDayjs(value)?.format(DATE_FORMAT) ?? EMPTY_PLACEHOLDER;
}

/** YYYY-MM-DD HH:mm, or '-' when empty. */
export function formatDateTime(value: DateInput): string {
  return toDayjs(value)?.format(DATE_TIME_FORMAT) ?? EMPTY_PLACEHOLDER;
}

/** Full timestamp per locale: zh YYYY-MM-DD HH:mm:ss, en e.g. 'January 2, 2024 3:04:05 PM'. */
export function formatFullDateTime(value: DateInput, locale: Locale): string {
  const d = toDayjs(value);
  if (!d) return EMPTY_PLACEHOLDER;
  return locale === 'zh_CN' ? d.format(ZH_FULL_FORMAT) : d.locale('en').format(EN_FULL_FORMAT);
}

/** 'Today 14:05' / 'Yesterday …' / 'Tomorrow …' near now, else YYYY-MM-DD HH:mm; the clock is injected. */
export function formatCalendar(value: DateInput, t: Translate, now: NowInput = Date.now()): string {
  const d = toDayjs(value);
  if (!d) return EMPTY_PLACEHOLDER;
  const days = d.startOf('day').diff(nowDayjs(now).startOf('day'), 'day');
  const time = d.format(TIME_FORMAT);
  if (days === 0) return `${t('core.date.today')} ${time}`;
  if (days === -1) return `${t('core.date.yesterday')} ${time}`;
  if (days === 1) return `${t('core.date.tomorrow')} ${time}`;
  return d.format(DATE_TIME_FORMAT);
}

/** A unit for relative time. */
export type RelativeUnit = 'second' | 'minute' | 'hour' | 'day' | 'month' | 'year';

/** Picks the unit and signed amount (negative = past) by the thresholds; pure, for display and tests. */
export function relativeTimeParts(
  value: DateInput,
  now: NowInput = Date.now(),
): { value: number; unit: RelativeUnit } | null {
  const d = toDayjs(value);
  if (!d) return null;
  const n = nowDayjs(now);
  const sign = d.isBefore(n) ? -1 : 1;
  const [early, late] = sign < 0 ? [d, n] : [n, d];
  const T = RELATIVE_TIME_THRESHOLDS;
  const seconds = late.diff(early, 'second');
  if (seconds < T.second) return { value: sign * seconds, unit: 'second' };
  const minutes = late.diff(early, 'minute');
  if (minutes < T.minute) return { value: sign * minutes, unit: 'minute' };
  const hours = late.diff(early, 'hour');
  if (hours < T.hour) return { value: sign * hours, unit: 'hour' };
  const days = late.diff(early, 'day');
  if (days < T.day) return { value: sign * days, unit: 'day' };
  const months = Math.max(1, late.diff(early, 'month'));
  if (months < T.month) return { value: sign * months, unit: 'month' };
  return { value: sign * Math.max(1, late.diff(early, 'year')), unit: 'year' };
}

/** '5 minutes ago' / '5分钟前', or '-' when empty; wording comes from Intl in the app locale. */
export function formatRelativeTime(value: DateInput, locale: Locale, now: NowInput = Date.now()): string {
  const parts = relativeTimeParts(value, now);
  if (!parts) return EMPTY_PLACEHOLDER;
  // `Object.is(-0, …)` would print "in 0 seconds"; zero is always "now-ish" past.
  const amount = parts.value === 0 ? -0 : parts.value;
  return new Intl.RelativeTimeFormat(localeTag(locale, 'html'), { numeric: 'always' }).format(amount, parts.unit);
}

/** Groups the integer part by thousands (1234567.5 → '1,234,567.5'); non-numbers show '-'. */
export function formatNumber(value: number | string | null | undefined): string {
  if (value === null || value === undefined || value === '') return EMPTY_PLACEHOLDER;
  const text = String(value).trim();
  if (!/^[-+]?\d+(\.\d+)?$/.test(text)) {
    const n = Number(text);
    if (!Number.isFinite(n)) return EMPTY_PLACEHOLDER;
    let plain = String(n);
    // Exponent forms (1e21, 1e-7) are expanded so the grouping regex below can handle them.
    if (plain.includes('e'))
      plain = Math.abs(n) >= 1 ? BigInt(Math.trunc(n)).toString() : n.toFixed(20).replace(/\.?0+$/, '');
    return /^[-+]?\d+(\.\d+)?$/.test(plain) ? formatNumber(plain) : EMPTY_PLACEHOLDER;
  }
  const sign = text.startsWith('-') ? '-' : '';
  const [int, frac] = text.replace(/^[-+]/, '').split('.');
  const grouped = int.replace(new RegExp(`\\B(?=(\\d{${THOUSANDS_GROUP_SIZE}})+(?!\\d))`, 'g'), ',');
  return sign + grouped + (frac ? `.${frac}` : '');
}
