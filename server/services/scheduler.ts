import type { AppContext } from '../context';
import type { EventLog } from '../events';

/** How often every instance looks for due events (expiries); a restart looks at once, so downtime is caught up. */
export const SCHEDULE_INTERVAL_MS = 5 * 60 * 1000;

/** A job the scheduler runs: it finds what is due and emits keyed events (idempotent across instances). */
export interface ScheduledJob {
  name: string;
  run: (ctx: AppContext) => Promise<void>;
}

/**
 * Runs the due-event jobs of the core and the mounted slices, one pass at a time per instance. Several instances
 * may run the same pass at once: jobs emit events with a `key`, and a receiver keeps one message per key, so each
 * message exists exactly once whichever instance found it first.
 */
export class Scheduler {
  private running: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly ctx: AppContext,
    private readonly jobs: readonly ScheduledJob[],
    private readonly log: EventLog,
  ) {}

  /** One pass now (joins the pass under way, if any); never rejects: a failing job is logged, the others run. */
  runNow(): Promise<void> {
    if (!this.running) {
      this.running = Promise.all(
        this.jobs.map((j) =>
          j.run(this.ctx).catch((err: unknown) => this.log.warn({ err, job: j.name }, 'scheduled job failed')),
        ),
      ).then(() => {
        // Every job's failure is caught above, so this settles only one way.
        this.running = null;
      });
    }
    return this.running;
  }

  /** Starts the periodic passes (the timer does not keep the process alive). */
  start(intervalMs = SCHEDULE_INTERVAL_MS): void {
    if (this.timer || this.jobs.length === 0) return;
    this.timer = setInterval(() => void this.runNow(), intervalMs).unref();
  }

  /** Stops the periodic passes and waits for the one under way. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}

/** One day in milliseconds. */
const DAY_MS = 24 * 60 * 60 * 1000;
/** Expired things older than this get no "expired" message (a new inbox does not report last year's tokens). */
export const EXPIRED_NOTICE_WINDOW_MS = 30 * DAY_MS;

/** The notice an expiring thing is due for now: the latest stage reached (after downtime, no backlog of stages). */
export type DueExpiry = { stage: 'expired' } | { stage: 'expiring'; days: number };

/**
 * Which expiry notice is due at `now` for something expiring at `expiresAt`: `expired` once past it (within the
 * window), else `expiring` with the smallest of `daysBefore` (e.g. [7, 1]) the remaining time is within; null when
 * none is due yet.
 */
export function dueExpiry(expiresAt: number, now: number, daysBefore: readonly number[]): DueExpiry | null {
  if (expiresAt <= now) return now - expiresAt <= EXPIRED_NOTICE_WINDOW_MS ? { stage: 'expired' } : null;
  const reached = daysBefore.filter((d) => expiresAt - now <= d * DAY_MS);
  return reached.length ? { stage: 'expiring', days: Math.min(...reached) } : null;
}

/** The widest window a scan needs for `dueExpiry`: from the oldest expired still reported to the farthest notice. */
export function expiryScanWindow(now: number, daysBefore: readonly number[]): { from: number; to: number } {
  return { from: now - EXPIRED_NOTICE_WINDOW_MS, to: now + Math.max(0, ...daysBefore) * DAY_MS };
}

/** Something of a user's that expires: a token, an SSH key. */
export interface ExpiringItem {
  id: string;
  userId: string;
  name: string;
  expiresAt: number;
}

/**
 * Emits the expiry notice each item is due for now (`token.expiring` / `token.expired`, or the same for SSH keys),
 * keyed by item, stage and expiry instant: a pass finding it again, on any instance, adds nothing, and moving the
 * expiry makes a new notice due.
 */
export async function emitDueExpiries(
  ctx: AppContext,
  kind: 'token' | 'ssh-key',
  daysBefore: readonly number[],
  /** The items expiring within the window (`expires_at` in (from, to]), read by the slice from its own table. */
  expiringWithin: (window: { from: number; to: number }) => Promise<ExpiringItem[]>,
): Promise<void> {
  if (!ctx.events.hasReceivers) return;
  const now = ctx.clock.now().getTime();
  const items = await expiringWithin(expiryScanWindow(now, daysBefore));
  for (const item of items) {
    const due = dueExpiry(item.expiresAt, now, daysBefore);
    if (!due) continue;
    const common = { name: item.name, expiresAt: item.expiresAt, to: { userId: item.userId } };
    const stage = due.stage === 'expired' ? 'expired' : `${due.days}d`;
    const key = `${kind}:${item.id}:${stage}:${item.expiresAt}`;
    if (due.stage === 'expired') {
      await ctx.events.emit({ ...common, key, type: kind === 'token' ? 'token.expired' : 'ssh-key.expired' });
    } else {
      await ctx.events.emit({
        ...common,
        key,
        days: due.days,
        type: kind === 'token' ? 'token.expiring' : 'ssh-key.expiring',
      });
    }
  }
}
