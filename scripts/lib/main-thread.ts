// The page's main-thread tasks in a Lighthouse trace, for bench:web's second TBT figure. Lighthouse's simulation takes
// each task's wall time (×4 on the mobile preset). On a small shared machine a task's wall time is largely waiting for a
// core (a 50 ms task with 2 ms of work is common on two cores): the thread time of the same tasks says how much of
// the blocking is the page's own work.

/** A trace event as Chromium writes it (the fields read here). */
export interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  /** Thread time of a complete event, µs. */
  tdur?: number;
  pid: number;
  tid: number;
  /** ParseHTML names its document in `beginData`; other events in `data`. */
  args?: { data?: { url?: string }; beginData?: { url?: string } };
}

/** Blocking time after the first contentful paint, from wall time and from thread time, and the thread time spent. */
export interface MainThreadFigures {
  /** Σ max(0, 4 × wall − 50 ms) over the tasks after FCP (what the simulation sees, before its network model). */
  wallBlockingMs: number;
  /** The same sum over thread time: the blocking the page's own work would cause on an otherwise idle machine. */
  cpuBlockingMs: number;
  /** Thread time of all tasks after FCP. */
  cpuMs: number;
}

/** Lighthouse's mobile CPU slowdown and the length above which a task blocks. */
const SLOWDOWN = 4;
const BLOCKING_AFTER_MS = 50;

/** The renderer thread that parsed the document at `path` (its ParseHTML event), if the trace has it. */
function documentParse(events: readonly TraceEvent[], path: string): TraceEvent | undefined {
  return events.find(
    (e) => e.name === 'ParseHTML' && (e.args?.beginData?.url ?? e.args?.data?.url ?? '').includes(path),
  );
}

/** The figures for the document at `path`, or undefined when the trace does not show it painted. */
export function mainThreadFigures(events: readonly TraceEvent[], path: string): MainThreadFigures | undefined {
  const parse = documentParse(events, path);
  if (!parse) return undefined;
  const fcp = events.find((e) => e.name === 'firstContentfulPaint' && e.pid === parse.pid && e.ts >= parse.ts);
  if (!fcp) return undefined;
  const figures: MainThreadFigures = { wallBlockingMs: 0, cpuBlockingMs: 0, cpuMs: 0 };
  for (const e of events) {
    if (e.name !== 'RunTask' || e.ph !== 'X' || e.pid !== parse.pid || e.tid !== parse.tid || e.ts < fcp.ts) continue;
    const wall = (e.dur ?? 0) / 1000;
    const cpu = (e.tdur ?? e.dur ?? 0) / 1000;
    figures.wallBlockingMs += Math.max(0, SLOWDOWN * wall - BLOCKING_AFTER_MS);
    figures.cpuBlockingMs += Math.max(0, SLOWDOWN * cpu - BLOCKING_AFTER_MS);
    figures.cpuMs += cpu;
  }
  return figures;
}

/**
 * The same trace as if the page had had a core to itself: each task of the page's main thread (the one that parsed
 * the document at `path`) lasts its thread time instead of its wall time, and what happened inside it is squeezed
 * into that time proportionally; every other thread, and the time between tasks, stay as recorded. Lighthouse
 * re-simulates from the trace, so auditing this copy answers the score of the page's own work on an idle machine
 * (thread time leaves out real waits too, a lock or a sync call: it is the bound from below, the recorded trace the
 * one from above). Undefined when the trace does not show the document.
 */
export function atThreadTime(events: readonly TraceEvent[], path: string): TraceEvent[] | undefined {
  const parse = documentParse(events, path);
  if (!parse) return undefined;
  const onThread = (e: TraceEvent) => e.pid === parse.pid && e.tid === parse.tid;
  // The top-level tasks (a nested run loop's task is part of the one it ran in); an event belongs to the last of them
  // that started at or before it, if that one had not ended.
  const tasks: TraceEvent[] = [];
  for (const e of events
    .filter((x) => onThread(x) && x.name === 'RunTask' && x.ph === 'X' && x.tdur !== undefined && x.dur)
    .sort((a, b) => a.ts - b.ts)) {
    const last = tasks[tasks.length - 1];
    if (!last || e.ts > last.ts + (last.dur ?? 0)) tasks.push(e);
  }
  const starts = tasks.map((t) => t.ts);
  const taskOf = (ts: number) => {
    let lo = 0;
    let hi = starts.length - 1;
    let at = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid] <= ts) {
        at = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    const task = at < 0 ? undefined : tasks[at];
    return task && ts <= task.ts + (task.dur ?? 0) ? task : undefined;
  };
  return events.map((e) => {
    if (!onThread(e)) return e;
    const task = taskOf(e.ts);
    if (!task || !task.dur || task.tdur === undefined || task.tdur >= task.dur) return e;
    const factor = task.tdur / task.dur;
    return {
      ...e,
      ts: task.ts + (e.ts - task.ts) * factor,
      ...(e.dur === undefined ? {} : { dur: e.dur * factor }),
    };
  });
}
