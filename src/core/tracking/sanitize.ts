import { isSecretName, redactSecrets, scrubLogValue } from '../../../schemas/secret-redaction';
import { TRACKING_LIMITS, type TrackingLimits } from './limits';

/** Cuts a string to at most `max` characters; non-strings become ''. */
export function truncate(value: unknown, max: number): string {
  if (value === undefined || value === null) return '';
  const s = typeof value === 'string' ? value : safeStringify(value);
  return s.length > max ? s.slice(0, max) : s;
}

/** JSON.stringify that never throws (cycles, BigInt) so logging a body cannot break the app. */
export function safeStringify(value: unknown): string {
  try {
    return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  } catch {
    try {
      return String(value);
    } catch {
      return '';
    }
  }
}

/** A runtime error as logged. */
export interface ErrorLog {
  /** Error message, cut to 10000 characters. */
  message: string;
  /** Stack, cut to 100000 characters. */
  stack: string;
  /** Page URL, cut to 30000 characters. */
  url: string;
}

/** Applies the error caps. */
export function sanitizeErrorLog(
  input: { message?: unknown; stack?: unknown; url?: unknown },
  limits: TrackingLimits = TRACKING_LIMITS,
): ErrorLog {
  return {
    message: truncate(input.message, limits.maxErrorMessageLength),
    stack: truncate(input.stack, limits.maxStackLength),
    url: truncate(input.url, limits.maxUrlLength),
  };
}

/** A failed API call as logged. */
export interface ApiErrorLog {
  /** Called URL, cut to 30000 characters. */
  url: string;
  /** HTTP method. */
  method: string;
  /** HTTP or pseudo status. */
  status: number;
  /** Server message, cut to 50 characters so similar failures group together. */
  message: string;
  /** Request body, cut to 10000 characters. */
  requestBody: string;
  /** Response body, cut to 10000 characters. */
  responseBody: string;
  /** Server request id, to find the server log. */
  requestId: string;
}

/** Applies the API-log caps. */
export function sanitizeApiErrorLog(
  input: {
    url?: unknown;
    method?: unknown;
    status?: unknown;
    message?: unknown;
    requestBody?: unknown;
    responseBody?: unknown;
    requestId?: unknown;
  },
  limits: TrackingLimits = TRACKING_LIMITS,
): ApiErrorLog {
  return {
    url: truncate(input.url, limits.maxUrlLength),
    method: truncate(input.method, 16),
    status: typeof input.status === 'number' ? input.status : 0,
    message: truncate(input.message, limits.apiErrorMessageLength),
    requestBody: truncate(scrubLogValue(input.requestBody), limits.maxBodyLength),
    responseBody: truncate(input.responseBody, limits.maxBodyLength),
    requestId: truncate(input.requestId, 128),
  };
}

export { isSecretName, redactSecrets, scrubLogValue };

/** A whole entry through `scrubLogValue`; never throws (an entry that cannot be read becomes `{}`). */
export function scrubLogEntry<T extends Record<string, unknown>>(entry: T): T {
  try {
    return scrubLogValue(entry) as T;
  } catch {
    return {} as T;
  }
}
