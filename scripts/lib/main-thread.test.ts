import { describe, expect, it } from 'vitest';
import { mainThreadFigures, type TraceEvent } from './main-thread';

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
  task(2_000, 40, 40), // before the paint: not counted
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
