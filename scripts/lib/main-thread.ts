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

/** The figures for the document at `path`, or undefined when the trace does not show it painted. */
export function mainThreadFigures(events: readonly TraceEvent[], path: string): MainThreadFigures | undefined {
  // The renderer thread that parsed the page's document.
  const parse = events.find(
    (e) => e.name === 'ParseHTML' && (e.args?.beginData?.url ?? e.args?.data?.url ?? '').includes(path),
  );
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
