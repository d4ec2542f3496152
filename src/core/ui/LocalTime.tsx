import { useSyncExternalStore } from 'react';
import { formatDate, formatDateTime, toDayjs, type DateInput } from '../i18n/format';

const noSubscription = () => () => {};

/**
 * False while React hydrates a page the service rendered, true in the browser after that (and at once in a page the
 * browser renders itself): React's own way to render a value only the browser knows (useSyncExternalStore's server
 * snapshot), without a hydration mismatch.
 */
export function useInBrowser(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

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
