import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './scripts/lib/chromium';

// One project per edition, each against its own real service on loopback (tests/e2e/serve.ts).
export const E2E_EDITIONS = ['vpc', 'aliyun', 'dedicated', 'dedicated_intl', 'global'] as const;
const basePort = Number(process.env.E2E_BASE_PORT ?? 4310);
const port = (i: number) => basePort + i;
// E2E_EDITIONS=vpc,global narrows a development run (and its servers); ports stay tied to the full list.
const selected = E2E_EDITIONS.map((edition, i) => ({ edition, port: port(i) })).filter(
  ({ edition }) => !process.env.E2E_EDITIONS || process.env.E2E_EDITIONS.split(',').includes(edition),
);

// The shell and the edition bundle are checked in every edition. A feature's spec runs on vpc and global (the two
// families: China paths in Chinese, global paths in English) and on any edition whose rules differ for it:
// dedicated_intl is English with the China-only sections (artifact credential, third-party bindings).
const SHELL_SPECS = ['shell.spec.ts', 'editions.spec.ts'];
const SPECS_BY_EDITION: Partial<Record<(typeof E2E_EDITIONS)[number], string[]>> = {
  aliyun: SHELL_SPECS,
  dedicated: SHELL_SPECS,
  dedicated_intl: [...SHELL_SPECS, 'credentials.spec.ts'],
};

export default defineConfig({
  testDir: 'tests/e2e',
  // Per base port, so concurrent runs on one machine do not delete each other's artifacts.
  outputDir: `test-results/e2e-${basePort}`,
  fullyParallel: false,
  workers: 2,
  retries: 0,
  timeout: 30_000,
  reporter: process.env.CI ? 'line' : 'list',
  use: {
    headless: true,
    // No trace by default: recording one (screencast, DOM snapshots) doubles the suite's time on two cores and hides
    // timing bugs. `npx playwright test --trace retain-on-failure` records them when a failure needs one.
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
  },
  projects: selected.map(({ edition, port }) => ({
    name: edition,
    ...(SPECS_BY_EDITION[edition] ? { testMatch: SPECS_BY_EDITION[edition] } : {}),
    use: { baseURL: `http://127.0.0.1:${port}` },
    metadata: { edition },
  })),
  webServer: selected.map(({ edition, port }) => ({
    command: `npx tsx tests/e2e/serve.ts`,
    env: { ...(process.env as Record<string, string>), EDITION: edition, PORT: String(port), HOST: '127.0.0.1' },
    url: `http://127.0.0.1:${port}/users/login`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
  })),
});
