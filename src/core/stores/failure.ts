import { REAUTH_REQUIRED, SERVER_ERROR_MIN_STATUS } from '../request/constants';
import { errorCodeOf, type RequestError } from '../request/errors';

/** What a page shows for a failed action: one of its own message ids, or the service's already localised text. */
export type Failure = { id: string } | { text: string };

/**
 * Outcome of a store action. A failure without anything to show is a response ≥ 500: the request client's
 * central notice (with the requestId) has said it already, so the page adds nothing.
 */
export type ActionResult = { ok: true } | { ok: false; failure?: Failure };

/** Service error codes a slice explains in its own catalogue, mapped to its message ids. */
export type FailureCodes = Readonly<Record<string, string>>;

/** Options of `failureOf`. */
export interface FailureOptions {
  /**
   * Show the service's own message for a 4xx it explained (default true). Off for actions whose page always
   * says the same thing whatever the reason.
   */
  serviceText?: boolean;
}

/**
 * The one mapping from a failed call to what a page shows:
 * - a service code the slice knows: that slice's message id (also for a ≥ 500 the slice explains, such as a mail
 *   server that refused; the central notice with the requestId shows as well);
 * - any other response ≥ 500: nothing (the central system-exception notice already shows it, with its requestId);
 * - another 4xx carrying the service's message (in the reader's language, from Accept-Language): that text;
 * - anything else (network, timeout, a 4xx without message): the fallback message id;
 * - except a 403 ReauthRequired that reached the caller: the member cancelled the core's re-authentication dialog,
 *   which said what was needed, so nothing more is shown.
 */
export function failureOf(
  error: RequestError,
  codes: FailureCodes,
  fallbackId: string,
  options: FailureOptions = {},
): Failure | undefined {
  const data = (error.data ?? {}) as { message?: unknown };
  const code = errorCodeOf(error);
  if (code === REAUTH_REQUIRED) return undefined;
  if (code && Object.hasOwn(codes, code)) return { id: codes[code] };
  if (error.status >= SERVER_ERROR_MIN_STATUS) return undefined;
  if (
    options.serviceText !== false &&
    error.status >= 400 &&
    error.status < SERVER_ERROR_MIN_STATUS &&
    typeof data.message === 'string' &&
    data.message
  )
    return { text: data.message };
  return { id: fallbackId };
}

/** The text of a failure in the page's language; `translate` is e.g. `(id) => intl.formatMessage({ id })`. */
export function failureText(failure: Failure, translate: (id: string) => string): string {
  return 'id' in failure ? translate(failure.id) : failure.text;
}
