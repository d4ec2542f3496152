import type { Schedule } from './queue';

/** A manual timer for tests: time only moves when `advance` is called. */
export function manualScheduler() {
  let now = 0;
  let tasks: Array<{ at: number; fn: () => void; id: number }> = [];
  let seq = 0;
  const schedule: Schedule = (fn, ms) => {
    const id = ++seq;
    tasks.push({ at: now + ms, fn, id });
    return () => {
      tasks = tasks.filter((t) => t.id !== id);
    };
  };
  return {
    schedule,
    /** Current virtual time in ms. */
    now: () => now,
    /** Moves virtual time forward, running due tasks in order (including ones they schedule). */
    advance(ms: number) {
      const end = now + ms;
      for (;;) {
        const due = tasks.filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.id - b.id)[0];
        if (!due) break;
        tasks = tasks.filter((t) => t !== due);
        now = due.at;
        due.fn();
      }
      now = end;
    },
    /** Number of timers waiting. */
    pendingCount: () => tasks.length,
  };
}
