import { useInBrowser } from './BrowserState';
import { formatDate, formatDateTime, toDayjs, type DateInput } from '../i18n/format';

/**
 * A timestamp as `YYYY-MM-DD HH:mm` (or `YYYY-MM-DD` with `date`) in the browser's time zone. The service does not
 * know that zone, so a page it renders holds the UTC time, hidden (same width: nothing moves when the local time
 * replaces it after hydration).
 */
export function LocalTime({ value, date = false }: { value: DateInput; date?: boolean }) {
  const inBrowser = useInBrowser();
  const d = toDayjs(value);
  const format = date ? formatDate : formatDateTime;
  if (!d) return <>{format(value)}</>;
  const iso = d.toDate().toISOString();
  return (
    <time dateTime={iso} style={inBrowser ? undefined : { visibility: 'hidden' }}>
      {inBrowser ? format(value) : iso.slice(0, date ? 10 : 16).replace('T', ' ')}
    </time>
  );
}
