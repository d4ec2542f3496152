import { describe, expect, it } from 'vitest';
import { atThreadTime, mainThreadFigures, type TraceEvent } from './main-thread';

const PAGE = { pid: 7, tid: 1 };
const task = (ts: number, durMs: number, tdurMs: number, where = PAGE): TraceEvent => ({
  name: 'RunTask',
  ph: 'X',
  ts,
  dur: durMs * 1000,
  tdur: tdurMs * 1000,
  ...where,
});

const trace: TraceEvent[] = [
  { name: 'ParseHTML', ph: 'X', ts: 1_000, dur: 500, ...PAGE, args: { beginData: { url: 'https://h/users/login' } } },
  task(-45_000, 40, 40), // before the paint: not counted
  { name: 'firstContentfulPaint', ph: 'R', ts: 10_000, ...PAGE },
  task(20_000, 30, 2), // waited for a core: blocks by wall time only
  task(60_000, 20, 20), // real work: blocks either way
  task(90_000, 10, 10), // short: never blocks
  task(95_000, 90, 90, { pid: 7, tid: 2 }), // another thread
  task(99_000, 90, 90, { pid: 8, tid: 1 }), // another process
];

describe('mainThreadFigures', () => {
  it("sums the blocking of the page's main-thread tasks after the first paint, by wall and by thread time", () => {
    expect(mainThreadFigures(trace, '/users/login')).toEqual({
      wallBlockingMs: 4 * 30 - 50 + (4 * 20 - 50),
      cpuBlockingMs: 4 * 20 - 50,
      cpuMs: 2 + 20 + 10,
    });
  });

  it('answers nothing for a page the trace does not show parsed and painted', () => {
    expect(mainThreadFigures(trace, '/users/settings')).toBeUndefined();
    expect(
      mainThreadFigures(
        trace.filter((e) => e.name !== 'firstContentfulPaint'),
        '/users/login',
      ),
    ).toBeUndefined();
  });
});

describe('atThreadTime', () => {
  it("squeezes each of the page's main-thread tasks, and what ran inside it, into its thread time", () => {
    const inside: TraceEvent = { name: 'FunctionCall', ph: 'X', ts: 35_000, dur: 8_000, ...PAGE };
    const mark: TraceEvent = { name: 'TimerInstall', ph: 'I', ts: 50_000, ...PAGE };
    // A task of a nested run loop inside it (a sync call's) belongs to it, and so does what follows it there.
    const nested = task(26_000, 3, 1);
    const after: TraceEvent = { name: 'Layout', ph: 'X', ts: 41_000, dur: 1_500, ...PAGE };
    const quiet = atThreadTime([...trace, inside, mark, nested, after], '/users/login')!;
    const waited = quiet.find((e) => e.name === 'RunTask' && e.ts === 20_000)!;
    // 30 ms of wall time, 2 of thread time: the task lasts 2 ms and its contents keep their places in proportion.
    expect(waited.dur).toBe(2_000);
    expect(quiet.find((e) => e.name === 'FunctionCall')).toMatchObject({ ts: 21_000, dur: 8_000 / 15 });
    expect(quiet.find((e) => e.name === 'TimerInstall')!.ts).toBe(20_000 + 30_000 / 15);
    const squeezedNested = quiet.find((e) => e.name === 'RunTask' && e.tdur === 1_000)!;
    expect(squeezedNested.ts).toBeCloseTo(20_000 + 6_000 / 15);
    expect(squeezedNested.dur).toBeCloseTo(200);
    const squeezedAfter = quiet.find((e) => e.name === 'Layout')!;
    expect(squeezedAfter.ts).toBeCloseTo(20_000 + 21_000 / 15);
    expect(squeezedAfter.dur).toBeCloseTo(100);
    // A task that used its wall time, other threads and processes, and what lies between tasks, stay as recorded.
    for (const e of trace.filter((x) => x.ts !== 20_000)) expect(quiet).toContainEqual(e);
    expect(mainThreadFigures(atThreadTime(trace, '/users/login')!, '/users/login')).toEqual({
      wallBlockingMs: 4 * 20 - 50,
      cpuBlockingMs: 4 * 20 - 50,
      cpuMs: 2 + 20 + 10,
    });
  });

  it('answers nothing for a trace without the document', () => {
    expect(atThreadTime(trace, '/users/settings')).toBeUndefined();
  });
});
