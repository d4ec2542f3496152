import { TRACKING_LIMITS, type TrackingLimits } from './limits';
import { realSchedule, type LogEntry, type LogSender, type Schedule } from './queue';

/** What the hold listens to; injectable for tests. */
export interface HoldOptions {
  /** Timer for the settle delay. */
  schedule?: Schedule;
  /** The window whose load, pagehide and visibility count; none (tests, workers): the page counts as loaded. */
  target?: Pick<Window, 'addEventListener' | 'removeEventListener'> & {
    document?: Pick<Document, 'readyState' | 'visibilityState' | 'addEventListener' | 'removeEventListener'>;
  };
  /** Limits; the spec's unless a test overrides them. */
  limits?: TrackingLimits;
}

/**
 * Holds every batch posted while the page is still loading and posts them once it has settled: `settleDelayMs` after
 * its load event (or, should that never come, `maxLoadTimeMs` after start). Log posts then never compete with the
 * page's own scripts and data on a slow network. Held batches leave together, and at once when the page is hidden or
 * left, so none is lost with the page; each held call resolves with its post's result, so a queue still retries a
 * failure.
 */
export function holdUntilSettled(send: LogSender, options: HoldOptions = {}): LogSender {
  const limits = options.limits ?? TRACKING_LIMITS;
  const schedule = options.schedule ?? realSchedule;
  const target = options.target;
  const doc = target?.document;
  let settled = false;
  let held: Array<{ batch: LogEntry[]; resolve: (ok: boolean) => void }> = [];
  const cancels: Array<() => void> = [];

  const post = (batch: LogEntry[]): Promise<boolean> => {
    try {
      return Promise.resolve(send(batch)).catch(() => false);
    } catch {
      return Promise.resolve(false);
    }
  };
  const onLoad = () => cancels.push(schedule(release, limits.settleDelayMs));
  const onVisibility = () => {
    if (doc?.visibilityState === 'hidden') release();
  };
  function release() {
    if (settled) return;
    settled = true;
    for (const cancel of cancels) cancel();
    try {
      target?.removeEventListener('load', onLoad);
      target?.removeEventListener('pagehide', release);
      doc?.removeEventListener('visibilitychange', onVisibility);
    } catch {
      // tracking must never break the app
    }
    // Held batches leave together, as few posts as the batch cap allows, and all at once rather than one after
    // another: on pagehide only what starts now still leaves.
    const groups: Array<typeof held> = [];
    let size = Infinity;
    for (const w of held) {
      if (size + w.batch.length > limits.maxBatchEntries) {
        groups.push([]);
        size = 0;
      }
      groups[groups.length - 1].push(w);
      size += w.batch.length;
    }
    held = [];
    for (const group of groups) {
      void post(group.flatMap((w) => w.batch)).then((ok) => {
        for (const w of group) w.resolve(ok);
      });
    }
  }

  try {
    if (!target || doc?.readyState === 'complete') onLoad();
    else target.addEventListener('load', onLoad);
    target?.addEventListener('pagehide', release);
    doc?.addEventListener('visibilitychange', onVisibility);
    cancels.push(schedule(release, limits.maxLoadTimeMs));
  } catch {
    release();
  }

  return (batch) => {
    if (settled) return post(batch);
    return new Promise<boolean>((resolve) => held.push({ batch, resolve }));
  };
}
