import { TRACKING_LIMITS, type TrackingLimits } from './limits';

/** One usage-log entry; free-form JSON. */
export type LogEntry = Record<string, unknown>;

/** Posts one batch; resolves true when the collector accepted it. May not throw, but is guarded anyway. */
export type LogSender = (batch: LogEntry[]) => boolean | Promise<boolean>;

/** Schedules fn after ms and returns a cancel function; injected so tests drive time. */
export type Schedule = (fn: () => void, ms: number) => () => void;

/** Default scheduler on the real timers. */
export const realSchedule: Schedule = (fn, ms) => {
  const id = setTimeout(fn, ms);
  return () => clearTimeout(id);
};

/** Options of the usage-log queue. */
export interface LogQueueOptions {
  /** Where batches go. */
  send: LogSender;
  /** Timer for the flush delay. */
  schedule?: Schedule;
  /** False while the browser is offline; entries then wait (capped) for the next flush. */
  isOnline?: () => boolean;
  /** Limits; the spec's unless a test overrides them. */
  limits?: TrackingLimits;
}

/** A batching queue for usage logs. */
export interface LogQueue {
  /** Adds an entry and schedules a flush; drops the oldest entries beyond the offline cap. */
  push(entry: LogEntry): void;
  /** Sends everything queued in batches of ≤ 200; unsent entries stay queued. */
  flush(): Promise<void>;
  /** Entries waiting to be sent. */
  pending(): readonly LogEntry[];
}

/** Creates the batching, offline-tolerant usage-log queue; nothing in it throws into the caller. */
export function createLogQueue(options: LogQueueOptions): LogQueue {
  const limits = options.limits ?? TRACKING_LIMITS;
  const schedule = options.schedule ?? realSchedule;
  const isOnline = options.isOnline ?? (() => typeof navigator === 'undefined' || navigator.onLine !== false);
  let queue: LogEntry[] = [];
  let cancelTimer: (() => void) | undefined;
  let flushing: Promise<void> | undefined;

  function cap() {
    if (queue.length > limits.offlineQueueMax) queue = queue.slice(queue.length - limits.offlineQueueMax);
  }

  async function sendOnce(batch: LogEntry[]): Promise<boolean> {
    try {
      return (await options.send(batch)) === true;
    } catch {
      return false;
    }
  }

  async function drain(): Promise<void> {
    while (queue.length > 0 && isOnline()) {
      const batch = queue.slice(0, limits.maxBatchEntries);
      queue = queue.slice(batch.length);
      if (!(await sendOnce(batch))) {
        queue = [...batch, ...queue];
        cap();
        return;
      }
    }
  }

  function flush(): Promise<void> {
    cancelTimer?.();
    cancelTimer = undefined;
    if (!flushing) {
      flushing = drain()
        .catch(() => {})
        .finally(() => {
          flushing = undefined;
        });
    }
    return flushing;
  }

  return {
    push(entry) {
      try {
        queue.push(entry);
        cap();
        if (queue.length >= limits.maxBatchEntries) void flush();
        else if (!cancelTimer)
          cancelTimer = schedule(() => {
            cancelTimer = undefined;
            void flush();
          }, limits.flushDelayMs);
      } catch {
        // logging must never break the app
      }
    },
    flush,
    pending: () => queue,
  };
}
