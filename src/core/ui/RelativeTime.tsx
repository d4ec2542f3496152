import { EMPTY_PLACEHOLDER, toDayjs, type DateInput } from '../i18n/format';
import { useInBrowser } from './BrowserState';

/** Props of `RelativeTime`. */
export interface RelativeTimeProps {
  /** The instant shown. */
  value: DateInput;
  /** The page's current time (one ticking clock per page, so every time of a list moves on together). */
  now: number;
  /** Its text at `now` ("3 minutes ago", "Today 14:05"…), in the browser's clock and time zone. */
  format: (now: number) => string;
  /** Its tooltip (the full local time, say), in the browser's time zone. */
  title?: () => string;
  /** The element's test id. */
  'data-testid'?: string;
}

/**
 * A time whose text depends on the browser's clock or time zone ("3 minutes ago", "Yesterday 09:12"): the service
 * knows neither, so a page it renders (and the browser's hydrating render, which must match it) holds the UTC time
 * in its place, hidden, on the same line; the browser's text replaces it once the page is hydrated (`useInBrowser`:
 * useSyncExternalStore's server snapshot). A page the browser renders itself shows the text at once.
 */
export function RelativeTime({ value, now, format, title, 'data-testid': testId }: RelativeTimeProps) {
  const inBrowser = useInBrowser();
  const d = toDayjs(value);
  if (!d) return <>{EMPTY_PLACEHOLDER}</>;
  const iso = d.toDate().toISOString();
  if (!inBrowser)
    return (
      <time dateTime={iso} data-testid={testId} style={{ visibility: 'hidden' }}>
        {iso.slice(0, 16).replace('T', ' ')}
      </time>
    );
  return (
    <time dateTime={iso} data-testid={testId} title={title?.()}>
      {format(now)}
    </time>
  );
}
