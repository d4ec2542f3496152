/** Source of the current time, injected so tests can move time instead of sleeping through a rule. */
export interface Clock {
  /** The current instant. */
  now(): Date;
}

/** The real wall clock, used outside tests. */
export const systemClock: Clock = { now: () => new Date() };

/** A clock tests move by hand, so expiry and lockout rules are checked without waiting. */
export class ManualClock implements Clock {
  private t: number;

  constructor(start: Date | number = Date.UTC(2026, 0, 1, 9, 0, 0)) {
    this.t = typeof start === 'number' ? start : start.getTime();
  }

  /** Current instant of this manual clock. */
  now(): Date {
    return new Date(this.t);
  }

  /** Moves time forward (negative to go back) by `ms` milliseconds. */
  advance(ms: number): void {
    this.t += ms;
  }

  /** Jumps to an absolute instant. */
  set(at: Date | number): void {
    this.t = typeof at === 'number' ? at : at.getTime();
  }
}
