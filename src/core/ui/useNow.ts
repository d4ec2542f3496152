import { useEffect, useState } from 'react';

/**
 * The current time, re-read every `tickMs` so relative times ("3 minutes ago") stay true while a page is open; the
 * clock is injected for tests.
 */
export function useNow(clock: () => number, tickMs: number): number {
  const [now, setNow] = useState(clock);
  useEffect(() => {
    const timer = setInterval(() => setNow(clock()), tickMs);
    return () => clearInterval(timer);
  }, [clock, tickMs]);
  return now;
}
