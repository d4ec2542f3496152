import { shouldReport, type ReportableError, type RequestInfo } from '../request/errors';
import { TRACKING_LIMITS, type TrackingLimits } from './limits';
import { createLogQueue, realSchedule, type LogEntry, type LogQueue, type LogSender, type Schedule } from './queue';
import { sanitizeApiErrorLog, sanitizeErrorLog, scrubLogEntry, truncate } from './sanitize';
import { createBeaconSender } from './sender';

/** Who and where, added to every event so events are attributable without callers repeating it. */
export interface TrackingContext {
  /** Signed-in user id. */
  userId?: string;
  /** Signed-in user's display name. */
  userName?: string;
  /** The app name the suite's analytics groups by. */
  appName?: string;
  /** Product id of the analytics account. */
  pid?: string;
  /** This bundle's edition id. */
  edition?: string;
  /** Current route path. */
  route?: string;
}

/** Setup of a tracker. */
export interface TrackerOptions {
  /** Current context, read at capture time (the user may sign in later). */
  getContext?: () => TrackingContext;
  /** Transport for batches; the beacon sender to `/api/logs` by default. */
  send?: LogSender;
  /** An existing queue to use instead of building one from `send`. */
  queue?: LogQueue;
  /** Clock (ms) stamped on entries. */
  clock?: () => number;
  /** Timer for the page-view delay and batching. */
  schedule?: Schedule;
  /** The current page URL, for logs; location.href by default. */
  getUrl?: () => string;
  /** Limits; the spec's unless a test overrides them. */
  limits?: TrackingLimits;
}

/** The app's usage tracker. */
export interface Tracker {
  /** Records a user action on a page; never throws. */
  capture(action: string, page: string, params?: Record<string, unknown>): void;
  /** Records a page view 500 ms later (once the route and title settled); returns a cancel. */
  pageView(page: string, params?: Record<string, unknown>): () => void;
  /** Logs a runtime error unless the ignore rules say otherwise; never throws. */
  error(error: ReportableError | unknown): void;
  /** Logs a failed API call (capped fields) unless the ignore rules say otherwise. */
  apiError(
    error: ReportableError & { requestId?: string; data?: unknown },
    request: RequestInfo & { body?: unknown },
  ): void;
  /** Sends what is queued now (e.g. on page hide). */
  flush(): Promise<void>;
}

/** A tracker that keeps nothing: the service's renderer of first screens (the browser's takes over) and tests. */
export const NO_TRACKER: Tracker = {
  capture: () => {},
  pageView: () => () => {},
  error: () => {},
  apiError: () => {},
  flush: async () => {},
};

function guard(fn: () => void): void {
  try {
    fn();
  } catch {
    // tracking must never break the app
  }
}

/** Creates a tracker; the app builds one, tests inject send, clock and timer. */
export function createTracker(options: TrackerOptions = {}): Tracker {
  const limits = options.limits ?? TRACKING_LIMITS;
  const schedule = options.schedule ?? realSchedule;
  const clock = options.clock ?? Date.now;
  const queue = options.queue ?? createLogQueue({ send: options.send ?? createBeaconSender(), schedule, limits });
  const getUrl = options.getUrl ?? (() => (typeof location !== 'undefined' ? location.href : ''));
  const getContext: () => TrackingContext = options.getContext ?? (() => ({}));
  // Every entry loses the secrets of its URLs (`?token=` of an activation link…) before it is queued.
  const push = (entry: LogEntry) => queue.push(scrubLogEntry(entry));

  function base(type: string): LogEntry {
    const ctx: TrackingContext = getContext() ?? {};
    return {
      type,
      time: clock(),
      userId: ctx.userId ?? '',
      userName: ctx.userName ?? '',
      appName: ctx.appName ?? '',
      pid: ctx.pid ?? '',
      edition: ctx.edition ?? '',
      route: truncate(ctx.route ?? (typeof location !== 'undefined' ? location.pathname : ''), limits.maxUrlLength),
      url: truncate(getUrl(), limits.maxUrlLength),
    };
  }

  function capture(action: string, page: string, params: Record<string, unknown> = {}) {
    guard(() => push({ ...base('event'), action, page, params }));
  }

  return {
    capture,
    pageView(page, params) {
      let cancel: () => void = () => {};
      guard(() => {
        cancel = schedule(() => capture('pageview', page, params), limits.pageViewDelayMs);
      });
      return () => guard(cancel);
    },
    error(err) {
      guard(() => {
        const e: ReportableError =
          err instanceof Error ? { message: err.message, stack: err.stack } : ((err ?? {}) as ReportableError);
        if (!shouldReport(e)) return;
        push({
          ...base('error'),
          ...sanitizeErrorLog({ message: e.message, stack: e.stack, url: getUrl() }, limits),
        });
      });
    },
    apiError(err, request) {
      guard(() => {
        if (!shouldReport(err, request)) return;
        push({
          ...base('api'),
          ...sanitizeApiErrorLog(
            {
              url: request.url,
              method: request.method ?? 'GET',
              status: err.status,
              message: err.message,
              requestBody: request.body,
              responseBody: err.data,
              requestId: err.requestId,
            },
            limits,
          ),
        });
      });
    },
    flush: () => queue.flush().catch(() => {}),
  };
}
