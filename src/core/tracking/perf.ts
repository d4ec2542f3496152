import { TRACKING_LIMITS, type TrackingLimits } from './limits';
import { realSchedule, type LogEntry, type Schedule } from './queue';
import { truncate } from './sanitize';

/** True when a measured load time is plausible; negative or > 20000 ms data is discarded. */
export function isValidLoadTime(ms: number, limits: TrackingLimits = TRACKING_LIMITS): boolean {
  return Number.isFinite(ms) && ms >= 0 && ms <= limits.maxLoadTimeMs;
}

/** True for this page load's 1% resource-timing sample; `random` is injected. */
export function isResourceSampled(random: () => number, limits: TrackingLimits = TRACKING_LIMITS): boolean {
  return random() < limits.resourceSampleRate;
}

/** The part of a PerformanceResourceTiming the collector reads. */
export interface ResourceLike {
  /** Resource URL. */
  name: string;
  /** Fetch duration in ms; compared with the slow threshold. */
  duration: number;
  /** What loaded it (script, img, fetch…), for grouping. */
  initiatorType?: string;
  /** Bytes on the wire; compared with the size threshold. */
  transferSize?: number;
  /** Compressed body bytes (transferSize is 0 for cached or cross-origin entries). */
  encodedBodySize?: number;
  /** Uncompressed body bytes. */
  decodedBodySize?: number;
}

/** Slow means ≥ 300 ms or ≥ 300000 bytes. */
export function isSlowResource(r: ResourceLike, limits: TrackingLimits = TRACKING_LIMITS): boolean {
  const size = Math.max(r.transferSize ?? 0, r.encodedBodySize ?? 0, r.decodedBodySize ?? 0);
  return r.duration >= limits.slowResourceMs || size >= limits.slowResourceBytes;
}

/** A long task worth logging (≥ 50 ms). */
export function isLongTask(durationMs: number, limits: TrackingLimits = TRACKING_LIMITS): boolean {
  return durationMs >= limits.longTaskMs;
}

/** An interaction slow enough to log (≥ 100 ms). */
export function isSlowEvent(durationMs: number, limits: TrackingLimits = TRACKING_LIMITS): boolean {
  return durationMs >= limits.eventTimingMs;
}

/** Splits entries into batches of at most `size` (200 by default). */
export function toBatches<T>(entries: readonly T[], size: number = TRACKING_LIMITS.maxBatchEntries): T[][] {
  const out: T[][] = [];
  const n = Math.max(1, Math.floor(size));
  for (let i = 0; i < entries.length; i += n) out.push(entries.slice(i, i + n));
  return out;
}

/** One resource as posted: capped URL, rounded numbers, slow flag. */
export function summarizeResource(r: ResourceLike, limits: TrackingLimits = TRACKING_LIMITS): LogEntry {
  return {
    type: 'resource',
    name: truncate(r.name, limits.maxUrlLength),
    initiatorType: r.initiatorType ?? '',
    duration: Math.round(r.duration),
    size: Math.max(r.transferSize ?? 0, r.encodedBodySize ?? 0),
    slow: isSlowResource(r, limits),
  };
}

/** Environment of the collector; every browser API is injectable and optional. */
export interface PerfCollectorOptions {
  /** Posts a batch of entries (as JSON); resource batches hold ≤ 200 entries. */
  send: (batch: LogEntry[]) => unknown;
  /** Random source for sampling. */
  random?: () => number;
  /** Timer for the idle check and the resource-timing delay. */
  schedule?: Schedule;
  /** The Performance API; absent in old browsers and tests. */
  performance?: Pick<Performance, 'getEntriesByType'> | null;
  /** The PerformanceObserver constructor; absent in old browsers and tests. */
  PerformanceObserver?: typeof PerformanceObserver | null;
  /** Whether the page finished loading (document.readyState === 'complete'). */
  isLoaded?: () => boolean;
  /** Limits; the spec's unless a test overrides them. */
  limits?: TrackingLimits;
}

/** A running collector. */
export interface PerfCollector {
  /** Stops observers and pending timers. */
  stop(): void;
}

function loadTimeFrom(perf: PerfCollectorOptions['performance']): number | undefined {
  const nav = perf?.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
  if (!nav) return undefined;
  return nav.loadEventEnd - nav.startTime;
}

/**
 * Starts the performance collector: long tasks and slow events via observers; once the page is idle
 * (checked every 100 ms) the load time, discarded when implausible; 8000 ms later, for a 1% sample,
 * resource timings in batches of ≤ 200. Every step is guarded: the collector never throws into the app.
 */
export function startPerfCollector(options: PerfCollectorOptions): PerfCollector {
  const limits = options.limits ?? TRACKING_LIMITS;
  const schedule = options.schedule ?? realSchedule;
  const random = options.random ?? Math.random;
  const perf =
    options.performance === undefined ? (typeof performance !== 'undefined' ? performance : null) : options.performance;
  const PO =
    options.PerformanceObserver === undefined
      ? typeof PerformanceObserver !== 'undefined'
        ? PerformanceObserver
        : null
      : options.PerformanceObserver;
  const isLoaded = options.isLoaded ?? (() => typeof document === 'undefined' || document.readyState === 'complete');
  const cancels: Array<() => void> = [];
  const observers: PerformanceObserver[] = [];
  let stopped = false;

  const post = (batch: LogEntry[]) => {
    try {
      const r = options.send(batch);
      if (r && typeof (r as Promise<unknown>).catch === 'function') (r as Promise<unknown>).catch(() => {});
    } catch {
      // never into the app
    }
  };
  const guard = (fn: () => void) => {
    try {
      if (!stopped) fn();
    } catch {
      // never into the app
    }
  };

  guard(() => {
    if (!PO) return;
    const observe = (
      type: string,
      extra: Record<string, unknown>,
      keep: (e: PerformanceEntry) => boolean,
      kind: string,
    ) => {
      try {
        const o = new PO((list) =>
          guard(() => {
            const entries = list
              .getEntries()
              .filter(keep)
              .map((e) => ({
                type: kind,
                name: truncate(e.name, limits.maxUrlLength),
                duration: Math.round(e.duration),
                startTime: Math.round(e.startTime),
              }));
            for (const batch of toBatches(entries, limits.maxBatchEntries)) post(batch);
          }),
        );
        o.observe({ type, buffered: true, ...extra } as PerformanceObserverInit);
        observers.push(o);
      } catch {
        // entry type unsupported by this browser
      }
    };
    observe('longtask', {}, (e) => isLongTask(e.duration, limits), 'longtask');
    observe('event', { durationThreshold: limits.eventTimingMs }, (e) => isSlowEvent(e.duration, limits), 'event');
  });

  const afterLoad = () =>
    guard(() => {
      const loadTime = loadTimeFrom(perf);
      if (loadTime === undefined || !isValidLoadTime(loadTime, limits)) return;
      post([{ type: 'load', loadTime: Math.round(loadTime) }]);
      if (!isResourceSampled(random, limits)) return;
      cancels.push(
        schedule(
          () =>
            guard(() => {
              const resources = (perf?.getEntriesByType('resource') ?? []) as unknown as ResourceLike[];
              for (const batch of toBatches(
                resources.map((r) => summarizeResource(r, limits)),
                limits.maxBatchEntries,
              ))
                post(batch);
            }),
          limits.resourceTimingDelayMs,
        ),
      );
    });

  // Poll until the load event has ended; give up once any load time would be discarded anyway.
  let waited = 0;
  const waitIdle = () =>
    guard(() => {
      if (isLoaded() && (loadTimeFrom(perf) ?? 1) > 0) afterLoad();
      else if (waited <= limits.maxLoadTimeMs) {
        waited += limits.pageIdleCheckMs;
        cancels.push(schedule(waitIdle, limits.pageIdleCheckMs));
      }
    });
  waitIdle();

  return {
    stop() {
      stopped = true;
      for (const c of cancels) {
        try {
          c();
        } catch {
          // ignore
        }
      }
      for (const o of observers) {
        try {
          o.disconnect();
        } catch {
          // ignore
        }
      }
    },
  };
}
