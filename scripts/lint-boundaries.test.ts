import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The house's import direction and data flow (DESIGN.md) as lint rules: each rule has at least one case that
// breaks it (so the test fails when a rule stops firing) and the legitimate imports lint clean.
// Probe sources are linted at real paths and import real modules, so element patterns and resolution are exercised.
const root = path.resolve(import.meta.dirname, '..');
const eslint = new ESLint({ cwd: root });

const BOUNDARY = 'boundaries/element-types';
const KYSELY = '@typescript-eslint/no-restricted-imports';
const NO_SQL_IN_ROUTES = 'no-restricted-syntax';
const NO_FETCH = 'no-restricted-globals';
const NO_FETCH_PROPERTY = 'no-restricted-properties';

/** The rule ids reported for `code` placed at `file` (relative to the repository root). */
async function ruleIds(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result.messages.map((m) => m.ruleId ?? m.message);
}

/** [what breaks the rule, file, source, rule expected to fire] */
const violations: Array<[string, string, string, string]> = [
  // Web side.
  [
    'plugin → another plugin (static)',
    'plugins/profile/pages/Probe.tsx',
    "import p from '../../ssh-keys/index';\nexport const x = p;\n",
    BOUNDARY,
  ],
  [
    'plugin → another plugin (import())',
    'plugins/profile/pages/Probe.tsx',
    "export const load = () => import('../../ssh-keys/index');\n",
    BOUNDARY,
  ],
  [
    'plugin → another plugin (export * from)',
    'plugins/profile/pages/Probe.tsx',
    "export * from '../../ssh-keys/index';\n",
    BOUNDARY,
  ],
  [
    'plugin → another plugin (export { } from)',
    'plugins/profile/pages/Probe.tsx',
    "export { default } from '../../ssh-keys/index';\n",
    BOUNDARY,
  ],
  [
    'plugin → another plugin’s limits',
    'plugins/ssh-keys/pages/Probe.tsx',
    "import * as limits from '../../profile/limits';\nexport const x = limits;\n",
    BOUNDARY,
  ],
  [
    'a limits module → anything (plain constants, no imports)',
    'plugins/profile/limits.ts',
    "import { PASSWORD_MIN_LENGTH } from '../../schemas/password-rule';\nexport const x = PASSWORD_MIN_LENGTH;\n",
    BOUNDARY,
  ],
  [
    'plugin → another plugin’s contract, even as a type',
    'plugins/ssh-keys/pages/Probe.tsx',
    "import type * as contract from '../../profile/contract';\nexport type C = typeof contract;\n",
    BOUNDARY,
  ],
  [
    'plugin web file → a plugin server half',
    'plugins/profile/pages/Probe.tsx',
    "import * as s from '../server/service';\nexport const x = s;\n",
    BOUNDARY,
  ],
  [
    'plugin → the app wiring',
    'plugins/profile/pages/Probe.tsx',
    "import App from '../../../src/app/App';\nexport const x = App;\n",
    BOUNDARY,
  ],
  [
    'plugin → the shell',
    'plugins/profile/pages/Probe.tsx',
    "import P from '../../../src/shell/NotFoundPage';\nexport const x = P;\n",
    BOUNDARY,
  ],
  [
    'plugin → its contract as a value (TypeBox in a bundle)',
    'plugins/profile/store.probe.ts',
    "import * as c from './contract';\nexport const x = c;\n",
    BOUNDARY,
  ],
  [
    'web → a TypeBox schema module under schemas/ as a value',
    'src/core/probe.ts',
    "import * as s from '../../schemas/common';\nexport const x = s;\n",
    BOUNDARY,
  ],
  [
    'web → schemas/edition.ts as a value',
    'src/core/probe.ts',
    "import { DEFAULT_EDITION } from '../../schemas/edition';\nexport const x = DEFAULT_EDITION;\n",
    BOUNDARY,
  ],
  [
    'web → the service core',
    'plugins/profile/store.probe.ts',
    "import { systemClock } from '../../server/clock';\nexport const x = systemClock;\n",
    BOUNDARY,
  ],
  [
    'core → a plugin',
    'src/core/probe.ts',
    "import p from '../../plugins/profile/index';\nexport const x = p;\n",
    BOUNDARY,
  ],
  [
    'core → a plugin (import())',
    'src/core/probe.ts',
    "export const load = () => import('../../plugins/profile/index');\n",
    BOUNDARY,
  ],
  ['core → the shell', 'src/core/probe.ts', "import S from '../shell/NotFoundPage';\nexport const x = S;\n", BOUNDARY],
  ['core → the app wiring', 'src/core/probe.ts', "import App from '../app/App';\nexport const x = App;\n", BOUNDARY],
  [
    'shell → a plugin',
    'src/shell/Probe.tsx',
    "import p from '../../plugins/profile/index';\nexport const x = p;\n",
    BOUNDARY,
  ],
  ['shell → the app wiring', 'src/shell/Probe.tsx', "export * from '../app/App';\n", BOUNDARY],
  [
    'production web code → the test kit',
    'plugins/profile/store.probe.ts',
    "import * as h from '../../tests/fixtures/server/argon2';\nexport const x = h;\n",
    BOUNDARY,
  ],
  [
    'fetch in a component',
    'plugins/profile/components/Probe.tsx',
    "export const load = () => fetch('/individual/proxy/me');\n",
    NO_FETCH,
  ],
  [
    'fetch in the core outside the request client',
    'src/core/probe.ts',
    "export const load = () => fetch('/x');\n",
    NO_FETCH,
  ],
  [
    'XMLHttpRequest in a store',
    'plugins/profile/store.probe.ts',
    'export const xhr = new XMLHttpRequest();\n',
    NO_FETCH,
  ],
  [
    'window.fetch in a page',
    'plugins/profile/pages/Probe.tsx',
    "export const load = () => window.fetch('/x');\n",
    NO_FETCH_PROPERTY,
  ],
  [
    'kysely value in web code',
    'plugins/profile/store.probe.ts',
    "import { sql } from 'kysely';\nexport const x = sql;\n",
    KYSELY,
  ],
  // Server side.
  [
    'plugin server → another plugin server',
    'plugins/ssh-keys/server/probe.ts',
    "import * as s from '../../profile/server/service';\nexport const x = s;\n",
    BOUNDARY,
  ],
  [
    'plugin server → another plugin server (import())',
    'plugins/ssh-keys/server/probe.ts',
    "export const load = () => import('../../profile/server/service');\n",
    BOUNDARY,
  ],
  [
    'plugin server → another plugin server (export * from)',
    'plugins/ssh-keys/server/probe.ts',
    "export * from '../../profile/server/service';\n",
    BOUNDARY,
  ],
  [
    'plugin server → another plugin’s contract',
    'plugins/ssh-keys/server/probe.ts',
    "import * as c from '../../profile/contract';\nexport const x = c;\n",
    BOUNDARY,
  ],
  [
    'plugin server → its own web files',
    'plugins/profile/server/probe.ts',
    "import * as s from '../store';\nexport const x = s;\n",
    BOUNDARY,
  ],
  [
    'plugin server → the web core',
    'plugins/profile/server/probe.ts',
    "import { edition } from '../../../src/core/edition';\nexport const x = edition;\n",
    BOUNDARY,
  ],
  [
    'service core → web code',
    'server/probe.ts',
    "import { edition } from '../src/core/edition';\nexport const x = edition;\n",
    BOUNDARY,
  ],
  [
    'service core → web code (import())',
    'server/probe.ts',
    "export const load = () => import('../src/core/edition');\n",
    BOUNDARY,
  ],
  [
    'service core → a plugin server (the CLI, a route…)',
    'server/cli/probe.ts',
    "import * as s from '../../plugins/profile/server/service';\nexport const x = s;\n",
    BOUNDARY,
  ],
  [
    'service core → a plugin contract',
    'server/routes/probe.ts',
    "import * as c from '../../plugins/profile/contract';\nexport const x = c;\n",
    BOUNDARY,
  ],
  [
    'schemas → the service core',
    'schemas/probe.ts',
    "import { systemClock } from '../server/clock';\nexport const x = systemClock;\n",
    BOUNDARY,
  ],
  [
    'a contract → web code',
    'plugins/profile/contract.ts',
    "import { edition } from '../../src/core/edition';\nexport const x = edition;\n",
    BOUNDARY,
  ],
  [
    'scripts → web code',
    'scripts/probe.ts',
    "import { edition } from '../src/core/edition';\nexport const x = edition;\n",
    BOUNDARY,
  ],
  [
    'scripts → a plugin’s web half',
    'scripts/probe.ts',
    "export const load = () => import('../plugins/profile/index');\n",
    BOUNDARY,
  ],
  [
    'kysely value in a core route',
    'server/routes/probe.ts',
    "import { sql } from 'kysely';\nexport const x = sql;\n",
    KYSELY,
  ],
  [
    'kysely value in a plugin route',
    'plugins/profile/server/routes.ts',
    "import { Kysely } from 'kysely';\nexport const x = Kysely;\n",
    KYSELY,
  ],
  [
    'kysely value in the app factory',
    'server/probe.ts',
    "import { sql } from 'kysely';\nexport const x = sql;\n",
    KYSELY,
  ],
  [
    'ctx.db in a core route file',
    'server/routes/probe.ts',
    'export const f = (ctx: { db: unknown }) => ctx.db;\n',
    NO_SQL_IN_ROUTES,
  ],
  [
    'app.ctx.db in a plugin routes file',
    'plugins/profile/server/routes.ts',
    'export const f = (app: { ctx: { db: unknown } }) => app.ctx.db;\n',
    NO_SQL_IN_ROUTES,
  ],
  [
    '{ db } destructured in a routes file',
    'plugins/ssh-keys/server/routes.ts',
    'export const f = ({ db }: { db: unknown }) => db;\n',
    NO_SQL_IN_ROUTES,
  ],
];

/** [what is legitimate, file, source] — must lint without a single message. */
const allowed: Array<[string, string, string]> = [
  [
    'a plugin page: the core, its own files (also by import()), its contract types, shared constants and types',
    'plugins/profile/pages/Probe.tsx',
    [
      "import { edition } from '../../../src/core/edition';",
      "import p from '../index';",
      "import type * as contract from '../contract';",
      "import { PASSWORD_MIN_LENGTH } from '../../../schemas/password-rule';",
      "import * as locale from '../../../schemas/locale';",
      "import * as limits from '../limits';",
      "import type { Success } from '../../../schemas/common';",
      "export type * from '../contract';",
      "export const x = [edition, p, PASSWORD_MIN_LENGTH, locale, limits, () => import('./ProfilePage')];",
      'export type S = [Success, typeof contract];',
    ].join('\n'),
  ],
  [
    'the app wiring: shell, core and plugins',
    'src/app/Probe.tsx',
    "import p from '../../plugins/profile/index';\nimport S from '../shell/NotFoundPage';\nimport { edition } from '../core/edition';\nexport const x = [p, S, edition];\n",
  ],
  [
    'the shell: the core and shared types',
    'src/shell/Probe.tsx',
    "import { edition } from '../core/edition';\nimport type { EditionManifest } from '../../schemas/edition';\nexport const x = edition;\nexport type M = EditionManifest;\n",
  ],
  ['fetch in the core request client', 'src/core/request/probe.ts', "export const load = () => fetch('/x');\n"],
  [
    'fetch in the tracking sender',
    'src/core/tracking/sender.ts',
    "export const send = () => fetch('/api/logs', { method: 'POST' });\n",
  ],
  ['fetch in a web unit test', 'plugins/profile/probe.test.ts', "export const load = () => fetch('/x');\n"],
  [
    'a plugin server: the service core, schemas, its contract and its own files',
    'plugins/profile/server/probe.ts',
    [
      "import { systemClock } from '../../../server/clock';",
      "import * as common from '../../../schemas/common';",
      "import * as contract from '../contract';",
      "import * as service from './service';",
      "export * from './service';",
      "export const x = [systemClock, common, contract, service, () => import('./routes')];",
    ].join('\n'),
  ],
  [
    'a contract: shared schemas and its own limits, as values',
    'plugins/profile/contract.ts',
    "import * as common from '../../schemas/common';\nimport * as limits from './limits';\nexport const x = [common, limits];\n",
  ],
  [
    'a service queries with Kysely values',
    'plugins/profile/server/service.ts',
    "import { sql } from 'kysely';\nexport const x = sql;\n",
  ],
  [
    'the core services query with Kysely values',
    'server/services/probe.ts',
    "import { sql } from 'kysely';\nexport const x = sql;\n",
  ],
  ['auth queries with Kysely values', 'server/auth/probe.ts', "import { sql } from 'kysely';\nexport const x = sql;\n"],
  [
    'migrations use Kysely values',
    'server/db/migrations/999-probe.ts',
    "import { sql } from 'kysely';\nexport const x = sql;\n",
  ],
  [
    'a route may name Kysely types and call a service with ctx',
    'server/routes/probe.ts',
    "import type { Kysely } from 'kysely';\nexport type K = Kysely<unknown>;\nexport const f = (ctx: { clock: unknown }) => ctx.clock;\n",
  ],
  [
    'the service core: itself and schemas (values too)',
    'server/probe.ts',
    "import { DEFAULT_EDITION } from '../schemas/edition';\nimport * as common from '../schemas/common';\nimport { systemClock } from './clock';\nexport const x = [DEFAULT_EDITION, common, systemClock, () => import('./app')];\nexport const f = (ctx: { db: unknown }) => ctx.db;\n",
  ],
  [
    'scripts: the service core and schemas',
    'scripts/probe.ts',
    "import { buildApp } from '../server/app';\nimport type { EditionManifest } from '../schemas/edition';\nexport const x = buildApp;\nexport type M = EditionManifest;\n",
  ],
  [
    'tests: anything, fetch and Kysely included',
    'tests/http/probe.test.ts',
    "import { sql } from 'kysely';\nimport { edition } from '../../src/core/edition';\nimport * as s from '../../plugins/profile/server/service';\nimport { buildApp } from '../../server/app';\nexport const x = [sql, edition, s, buildApp, () => fetch('/x')];\n",
  ],
  [
    'a web unit test may use the test kit',
    'plugins/profile/probe.test.ts',
    "import { parseHashOptions } from '../../tests/fixtures/server/argon2';\nimport p from './index';\nexport const x = [parseHashOptions, p];\n",
  ],
];

describe('lint: the house’s import direction and data flow', () => {
  it.each(violations)('refuses %s', async (_what, file, code, rule) => {
    expect(await ruleIds(file, code)).toContain(rule);
  });

  it.each(allowed)('allows %s', async (_what, file, code) => {
    expect(await ruleIds(file, code)).toEqual([]);
  });
});
