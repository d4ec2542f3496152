import { useEffect, useState } from 'react';
import type { Clock } from '../captcha/crypto';

/** Whole seconds from `now` until `at` (rounded up), never below 0; 0 when there is no deadline. */
export function secondsUntil(at: number | null, now: number): number {
  return at === null ? 0 : Math.max(0, Math.ceil((at - now) / 1000));
}

/** Seconds left until `at` (local ms, read with `clock`), ticking once a second while positive: resend countdowns. */
export function useSecondsUntil(at: number | null, clock: Clock = Date.now): number {
  const [seconds, setSeconds] = useState(() => secondsUntil(at, clock()));
  useEffect(() => {
    setSeconds(secondsUntil(at, clock()));
    if (at === null) return;
    const id = window.setInterval(() => {
      const s = secondsUntil(at, clock());
      setSeconds(s);
      if (s <= 0) window.clearInterval(id);
    }, 1000);
    return () => window.clearInterval(id);
  }, [at, clock]);
  return seconds;
}
