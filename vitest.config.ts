import fs from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

// Unit tests of web code see the default edition, as its bundle would.
const root = import.meta.dirname;
const vpc = JSON.parse(fs.readFileSync(path.join(root, 'editions/vpc.json'), 'utf8'));
vpc.brand.color ??= '#006AD4';
vpc.features = { legacyTokens: false, privateDeployment: false, ...vpc.features };

export default defineConfig({
  define: { __EDITION__: JSON.stringify(vpc) },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'web',
          environment: 'happy-dom',
          include: ['src/**/*.test.{ts,tsx}', 'plugins/*/!(server)/**/*.test.{ts,tsx}', 'plugins/*/*.test.{ts,tsx}'],
          setupFiles: ['tests/fixtures/web-setup.ts'],
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
            'tests/http/**/*.test.ts',
          ],
          testTimeout: 30000,
          hookTimeout: 60000,
        },
      },
    ],
  },
});
