import { expect } from 'vitest';

/**
 * Fails when any of the secrets a test used (passwords, cookies, CSRF tokens, codes, tickets, passes) appears in
 * the log lines the service wrote. Cookie headers are split into their values; short or empty strings are skipped; an
 * all-digit secret is looked for as a whole number.
 */
export function expectNoSecrets(logs: readonly string[], secrets: readonly string[]): void {
  const values = secrets
    .flatMap((s) => (s.includes('=') && s.includes(';') ? s.split(';').map((p) => p.split('=')[1] ?? '') : [s]))
    .map((s) => s.trim())
    .filter((s) => s.length >= 6);
  // An all-digit secret (an authenticator code) counts only as a number of its own: log lines hold times, process ids
  // and durations (`"responseTime":12.030764`) in which any six digits turn up sooner or later.
  const found = (v: string, l: string) =>
    /^[0-9]+$/.test(v) ? new RegExp(`(?<![0-9.])${v}(?![0-9])`).test(l) : l.includes(v);
  const leaks = values.flatMap((v) =>
    logs.filter((l) => found(v, l)).map((l) => `${v.slice(0, 4)}… in ${l.slice(0, 160)}`),
  );
  expect(leaks).toEqual([]);
}
