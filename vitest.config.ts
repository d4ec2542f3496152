import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

// Unit tests of web code see the default edition, as its bundle would.
const root = import.meta.dirname;
const vpc = JSON.parse(fs.readFileSync(path.join(root, 'editions/vpc.json'), 'utf8'));
vpc.brand.color ??= '#006AD4';
vpc.features = { legacyTokens: false, privateDeployment: false, ...vpc.features };

/** HTTP test files that belong to the security suite: the lockout burst, the redirect corpus, the captcha. */
/**
 * Tests that time a burst (an answer time is part of what they assert): they run alone, one file at a time after the
 * other suites (npm run test:security), so no other test file shares the cores with them.
 */
const TIMED_TESTS = ['tests/http/avatar-uploads.test.ts'];

const SECURITY_HTTP_TESTS = [
  'tests/http/lockout.test.ts',
  'tests/http/redirects.test.ts',
  'tests/http/captcha.test.ts',
];

export default defineConfig({
  define: { __EDITION__: JSON.stringify(vpc) },
  test: {
    // One worker per core. Vitest's default (cores − 1) is a single worker on a 2-core machine, and the HTTP tests
    // spend much of their time waiting on sockets, child processes and timers: two workers run the unit stage in
    // about 175 s instead of 300. On PostgreSQL every test server has its own schema and drops it when done; the
    // migrator's introspection reads only its own schema (server/db/pg-introspector.ts), so files run in parallel.
    maxWorkers: os.availableParallelism(),
    projects: [
      {
        extends: true,
        test: {
          name: 'web',
          environment: 'happy-dom',
          include: ['src/**/*.test.{ts,tsx}', 'plugins/*/!(server)/**/*.test.{ts,tsx}', 'plugins/*/*.test.{ts,tsx}'],
          setupFiles: ['tests/fixtures/web-setup.ts'],
          // Page tests render whole flows (the slider, the wizard); on 2 busy cores one can pass 5 s.
          testTimeout: 20000,
        },
      },
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: [
            'server/**/*.test.ts',
            'plugins/*/server/**/*.test.ts',
            'scripts/**/*.test.ts',
            'schemas/**/*.test.ts',
            'tests/http/**/*.test.ts',
          ],
          // The attacker's suites run in the security project (npm run test:security), on both databases.
          exclude: [...SECURITY_HTTP_TESTS, ...TIMED_TESTS],
          testTimeout: 30000,
          hookTimeout: 60000,
        },
      },
      {
        extends: true,
        test: {
          // The security suite (npm run test:security): fuzzing, IDOR matrix, crash rounds — on SQLite and PostgreSQL.
          name: 'security',
          environment: 'node',
          include: ['tests/security/**/*.test.ts', ...SECURITY_HTTP_TESTS],
          testTimeout: 300000,
          hookTimeout: 60000,
        },
      },
      {
        extends: true,
        test: {
          name: 'timed',
          environment: 'node',
          include: TIMED_TESTS,
          fileParallelism: false,
          testTimeout: 60000,
          hookTimeout: 60000,
        },
      },
    ],
  },
});
