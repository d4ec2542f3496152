import { TIME_ZONE_COOKIE, timeZoneName } from '../../../schemas/time-zone';
import { readCookie, writeCookie } from './locale';

/** The browser's own time zone (an IANA name), or undefined when it does not say. */
export function browserTimeZone(): string | undefined {
  try {
    // The runtime's own zone needs no check that the runtime knows it: only that its name is one the cookie carries.
    return timeZoneName(Intl.DateTimeFormat().resolvedOptions().timeZone);
  } catch {
    return undefined;
  }
}

/**
 * Tells the service the browser's time zone (its cookie, rewritten only when it changed), so that the pages it
 * paints show times as this browser would (see schemas/time-zone.ts). Answers that zone (reading it costs a
 * formatter).
 */
export function rememberTimeZone(doc: Document = document): string | undefined {
  const zone = browserTimeZone();
  if (zone && readCookie(doc.cookie, TIME_ZONE_COOKIE) !== zone) writeCookie(doc, TIME_ZONE_COOKIE, zone);
  return zone;
}
