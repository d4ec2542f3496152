import { CLIENT_STATUS } from './constants';

/** A failed call: the server's error body plus the status, so callers can branch on both. */
export class RequestError extends Error {
  override name = 'RequestError';
  /** HTTP status, or a negative/zero pseudo-status from CLIENT_STATUS when no response arrived. */
  status: number;
  /** The server's machine-readable error code, when it sent one. */
  code?: string;
  /** Server-side id of the request, shown to users so support can find the log. */
  requestId?: string;
  /** The parsed error body exactly as the server sent it. */
  data?: unknown;
  /** The URL that failed, for reporting. */
  url: string;
  /** The HTTP method that failed, for reporting. */
  method: string;

  constructor(init: {
    status: number;
    message: string;
    url: string;
    method: string;
    code?: string;
    requestId?: string;
    data?: unknown;
  }) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.data = init.data;
    this.url = init.url;
    this.method = init.method;
  }
}

/** The service's error code of a failed call (its body first, then the parsed error), or undefined. */
export function errorCodeOf(error: RequestError): string | undefined {
  const data = (error.data ?? {}) as { code?: unknown };
  return typeof data.code === 'string' ? data.code : error.code;
}

/** What a reporter needs to know about the call that failed. */
export interface RequestInfo {
  /** The requested URL (path or absolute). */
  url: string;
  /** Upper-case HTTP method. */
  method?: string;
}

/** Anything that may be reported: request errors, runtime errors, or plain objects. */
export interface ReportableError {
  /** HTTP status or client pseudo-status; absent for runtime errors. */
  status?: number;
  /** Server error code, matched against the ignored codes. */
  code?: string;
  /** Human message; some ignore rules match on it. */
  message?: string;
  /** Stack trace; extension frames mark errors that are not ours. */
  stack?: string;
  /** Script URL of a runtime error (window.onerror's `filename`). */
  filename?: string;
}

/** A status + URL pattern whose failures are expected and therefore not reported. */
export interface IgnoreRule {
  /** The HTTP status the rule applies to. */
  status: number;
  /** URLs (matched against the request URL) where that status is normal. */
  url: RegExp;
  /** Why this is not an error; documentation only. */
  reason: string;
}

/** The spec's error-catalogue ignore rules in one table; URL patterns are our reading of "requests for X". */
export const REPORT_IGNORE_RULES: readonly IgnoreRule[] = [
  { status: 401, url: /work[-_]?items?/i, reason: 'work-item queries of users without project access' },
  { status: 401, url: /workspace|sprint/i, reason: 'workspace and sprint queries' },
  { status: 401, url: /(^|[/.])flow([/.?:]|$)|pipeline/i, reason: 'flow member and pipeline queries' },
  { status: 401, url: /navigation|nav[-_]?configs?/i, reason: 'app navigation configs' },
  { status: 403, url: /feature[-_]?flags?|featureflag|\/features?([/?]|$)/i, reason: 'feature flags' },
  { status: 403, url: /introPointState/i, reason: 'intro point state' },
  { status: 403, url: /accounts?[-_:/]?import|import[-_:/]?accounts?/i, reason: 'account import' },
  { status: 400, url: /e-?mails?[:/](re)?bind|e-?mail[-_]?bind/i, reason: 'e-mail bind validation' },
  { status: 400, url: /codeup\/.*keys|\/user\/(gpg_)?keys/i, reason: 'code-hosting key validation' },
  { status: 402, url: /metric/i, reason: 'metric cards of unpaid editions' },
  { status: 409, url: /projects?.*verify|verify.*projects?/i, reason: 'project import verify conflicts' },
];

/** Error code of the add-on upgrade status call that fails routinely. */
export const IGNORED_ERROR_CODES: readonly string[] = ['AS_ACK_ADDON_DESCRIBE_ADDONS_FAILED'];

/** Pseudo-statuses (network, abort, timeout, other) that say nothing about our code. */
export const IGNORED_STATUSES: readonly number[] = Object.values(CLIENT_STATUS);

const LAST_WORKSPACE = /lastWorkspace/i;
const UPDATE_FAILED = /update failed/i;
const RESIZE_OBSERVER = /ResizeObserver loop/i;
const EXTENSION = /(chrome|moz|safari(-web)?|ms-browser)-extension:\/\//i;

/** Decides whether a failure is worth reporting; the spec's ignore list lives here and only here. */
export function shouldReport(error: ReportableError | null | undefined, request?: RequestInfo): boolean {
  if (!error) return false;
  const message = String(error.message ?? '');
  if (RESIZE_OBSERVER.test(message)) return false;
  if (EXTENSION.test(String(error.stack ?? '')) || EXTENSION.test(String(error.filename ?? ''))) return false;
  if (error.code && IGNORED_ERROR_CODES.includes(error.code)) return false;
  const status = error.status;
  if (typeof status === 'number' && IGNORED_STATUSES.includes(status)) return false;
  const url = request?.url ?? '';
  if (url) {
    if (typeof status === 'number' && REPORT_IGNORE_RULES.some((r) => r.status === status && r.url.test(url)))
      return false;
    if (LAST_WORKSPACE.test(url) && UPDATE_FAILED.test(message)) return false;
  }
  return true;
}

/** Statuses the report-only helper treats as the user's own mistake rather than an error. */
export const REPORT_ONLY_NON_ERROR_STATUSES: readonly number[] = [400, 401];

/** For calls whose failure is only logged (never shown): reports unless it is a 400/401 or ignored; returns whether it reported. */
export function reportOnly(
  error: ReportableError | null | undefined,
  request: RequestInfo | undefined,
  report: (error: ReportableError, request?: RequestInfo) => void,
): boolean {
  if (!error) return false;
  if (typeof error.status === 'number' && REPORT_ONLY_NON_ERROR_STATUSES.includes(error.status)) return false;
  if (!shouldReport(error, request)) return false;
  try {
    report(error, request);
  } catch {
    // a broken reporter must not break the caller
  }
  return true;
}
