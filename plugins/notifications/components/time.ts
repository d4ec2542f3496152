import type { Locale } from '../../../src/core/edition';
import {
  formatCalendar,
  formatFullDateTime,
  formatRelativeTime,
  toDayjs,
  type DateInput,
  type NowInput,
  type Translate,
} from '../../../src/core/i18n/format';

/** Below this age a message shows how long ago it arrived ("3 minutes ago"); older ones show when. */
export const RELATIVE_UNDER_MS = 60 * 60 * 1000;

/**
 * When a message arrived, as the list shows it: relative under an hour ("3 minutes ago"), then "Today 14:05" /
 * "Yesterday 09:12", else `YYYY-MM-DD HH:mm`. The clock is injected so tests are stable.
 */
export function messageTime(value: DateInput, locale: Locale, t: Translate, now: NowInput): string {
  const d = toDayjs(value);
  const age = d ? Number(now) - d.valueOf() : NaN;
  // A message a few seconds "in the future" (clocks differ a little) is just new.
  if (age < RELATIVE_UNDER_MS && age > -RELATIVE_UNDER_MS)
    return formatRelativeTime(value, locale, Math.max(Number(now), d!.valueOf()));
  return formatCalendar(value, t, now);
}

/** The full time for a tooltip: zh `YYYY-MM-DD HH:mm:ss`, en the long form. */
export function messageFullTime(value: DateInput, locale: Locale): string {
  return formatFullDateTime(value, locale);
}
