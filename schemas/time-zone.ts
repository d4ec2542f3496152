// Shared by the web app and the service: no imports, so nothing else rides along into a bundle.

/**
 * The cookie that carries the browser's time zone (an IANA name such as `Asia/Shanghai`), written by the web app on
 * every start. The service renders a page whose first screen shows times (token, key and credential dates) only when
 * it knows the zone, so the painted times are the ones the browser itself would show.
 */
export const TIME_ZONE_COOKIE = 'ak_time_zone';

/** The longest zone name accepted (the IANA names run to about 30 characters). */
export const TIME_ZONE_MAX_LENGTH = 64;

/**
 * `zone` when it has the shape of a zone name (letters, digits, `_+-/`, at most `TIME_ZONE_MAX_LENGTH`), else
 * undefined. Enough where the name is only compared, not used: the browser checks its page configuration's zone (which
 * the service checked) against its own this way, without building a formatter for it (its zone data costs a few
 * milliseconds on a phone's start).
 */
export function timeZoneName(zone: unknown): string | undefined {
  if (typeof zone !== 'string' || zone.length === 0 || zone.length > TIME_ZONE_MAX_LENGTH) return undefined;
  return /^[A-Za-z0-9_+\-/]+$/.test(zone) ? zone : undefined;
}

/**
 * `zone` as given when it is a time zone this runtime knows, else undefined (never throws). Not its canonical name:
 * runtimes canonicalise some zones differently (`America/Argentina/Buenos_Aires`), and the service hands back the name
 * the browser wrote, for the browser to compare with its own.
 */
export function knownTimeZone(zone: unknown): string | undefined {
  if (!timeZoneName(zone)) return undefined;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone as string });
    return zone as string;
  } catch {
    return undefined;
  }
}
