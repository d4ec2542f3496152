import { expect } from 'vitest';

/**
 * Fails when any of the secrets a test used (passwords, cookies, CSRF tokens, codes, tickets, passes) appears in
 * the log lines the service wrote. Cookie headers are split into their values; short or empty strings are skipped.
 */
export function expectNoSecrets(logs: readonly string[], secrets: readonly string[]): void {
  const values = secrets
    .flatMap((s) => (s.includes('=') && s.includes(';') ? s.split(';').map((p) => p.split('=')[1] ?? '') : [s]))
    .map((s) => s.trim())
    .filter((s) => s.length >= 6);
  const leaks = values.flatMap((v) =>
    logs.filter((l) => l.includes(v)).map((l) => `${v.slice(0, 4)}… in ${l.slice(0, 160)}`),
  );
  expect(leaks).toEqual([]);
}
