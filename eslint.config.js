// Lint: TypeScript rules plus the house's one-way imports (DESIGN.md, "The house" and "Data flow").
// scripts/lint-boundaries.test.ts holds one violating case per rule below and fails when a rule stops firing.
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import tseslint from 'typescript-eslint';

/** Unit tests and test helpers that sit next to the code; they may also use the kit under tests/. */
const TEST_FILES = ['**/*.test.{ts,tsx}', 'plugins/*/test-backend.ts'];

/** Web code: the core, the shell, the app wiring and the web halves of the plugins. */
const WEB_FILES = ['src/**/*.{ts,tsx}', 'plugins/**/*.{ts,tsx}'];

/** Files that may query the database with Kysely values (`sql`, the `Kysely` class…); the rest import its types only. */
const KYSELY_FILES = [
  'server/db/**',
  'server/auth/**',
  'server/services/**',
  'plugins/*/server/service.ts',
  'plugins/*/server/service/**',
  'plugins/*/server/services/**',
  'plugins/*/server/*-service.ts',
  'plugins/*/server/migrations/**',
];

/** Route files: they validate, call a service and answer; the database is out of their reach. */
const ROUTE_FILES = ['server/routes/**/*.ts', 'plugins/*/server/routes.ts', 'plugins/*/server/routes/**/*.ts'];

// Elements, most specific first (the first matching pattern classifies a file; `full` = path from the root).
const elements = [
  { type: 'tests', pattern: 'tests/**', mode: 'full' },
  { type: 'scripts', pattern: 'scripts/**', mode: 'full' },
  // Plain constants shared by web and server (no imports, no TypeBox): web code may import their values.
  {
    type: 'schemas-plain',
    pattern:
      'schemas/{locale,color-scheme,account-events,password-rule,captcha-rules,redirect-rule,secret-redaction,sign-in-paths,reauth-paths,page-paths,first-screen,second-factor-limits,credential-kinds}.ts',
    mode: 'full',
  },
  // TypeBox schemas and declared shapes: web code imports their types only.
  { type: 'schemas', pattern: 'schemas/**', mode: 'full' },
  { type: 'core', pattern: 'src/core/**', mode: 'full' },
  { type: 'shell', pattern: 'src/shell/**', mode: 'full' },
  { type: 'app', pattern: 'src/app/**', mode: 'full' },
  { type: 'plugin-server', pattern: 'plugins/*/server/**', mode: 'full', capture: ['pluginId'] },
  { type: 'plugin-contract', pattern: 'plugins/*/contract.ts', mode: 'full', capture: ['pluginId'] },
  { type: 'plugin-limits', pattern: 'plugins/*/limits.ts', mode: 'full', capture: ['pluginId'] },
  { type: 'plugin', pattern: 'plugins/*/**', mode: 'full', capture: ['pluginId'] },
  { type: 'server', pattern: 'server/**', mode: 'full' },
];

const own = (type) => [type, { pluginId: '{{from.pluginId}}' }];
/** What web code may import from the shared rooms: plain constants as values, schemas as types only. */
const webShared = (from) => [
  { from, allow: ['schemas-plain'] },
  { from, allow: ['schemas'], importKind: 'type' },
];

/** The import direction. `extra` is added to every room (the test variant adds the kit under tests/). */
function elementTypes(extra = []) {
  const rules = [
    { from: 'schemas-plain', allow: ['schemas-plain'] },
    { from: 'schemas', allow: ['schemas', 'schemas-plain'] },
    { from: 'core', allow: ['core'] },
    ...webShared('core'),
    { from: 'shell', allow: ['shell', 'core'] },
    ...webShared('shell'),
    { from: 'app', allow: ['app', 'shell', 'core', 'plugin'] },
    ...webShared('app'),
    { from: 'plugin', allow: ['core', own('plugin'), own('plugin-limits')] },
    { from: 'plugin', allow: [own('plugin-contract')], importKind: 'type' },
    ...webShared('plugin'),
    { from: 'plugin-contract', allow: ['schemas', 'schemas-plain', own('plugin-limits')] },
    {
      from: 'plugin-server',
      allow: ['server', 'schemas', 'schemas-plain', own('plugin-server'), own('plugin-contract'), own('plugin-limits')],
    },
    // The service core mounts slices by folder (server/plugin-loader.ts) and never imports one.
    { from: 'server', allow: ['server', 'schemas', 'schemas-plain'] },
    {
      from: 'scripts',
      allow: ['scripts', 'server', 'schemas', 'schemas-plain', 'plugin-server', 'plugin-contract', 'plugin-limits'],
    },
    { from: 'tests', allow: ['*'] },
  ];
  if (extra.length) rules.push({ from: '*', allow: extra });
  return ['error', { default: 'disallow', rules }];
}

export default tseslint.config(
  {
    ignores: ['dist/**', '.generated/**', 'node_modules/**', 'data/**', 'test-results/**', 'playwright-report/**', '.scratch/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { window: 'readonly', document: 'readonly', console: 'readonly', process: 'readonly' },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-undef': 'off',
    },
  },
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.json'] } },
      'boundaries/include': ['src/**', 'plugins/**', 'server/**', 'schemas/**', 'tests/**', 'scripts/**'],
      // Static imports, `import()` (pages, catalogues, captcha, stores load that way) and `export … from`.
      'boundaries/dependency-nodes': ['import', 'dynamic-import', 'export'],
      'boundaries/elements': elements,
    },
    rules: { 'boundaries/element-types': elementTypes() },
  },
  { files: TEST_FILES, rules: { 'boundaries/element-types': elementTypes(['tests']) } },
  // A route never reaches Kysely: only services, the db layer, auth and migrations import its values.
  {
    files: ['**/*.{ts,tsx}'],
    ignores: [...KYSELY_FILES, 'tests/**', ...TEST_FILES],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'kysely',
              allowTypeImports: true,
              message:
                'Queries live in a service (server/services, plugins/*/server/service.ts), server/db or server/auth.',
            },
          ],
          patterns: [
            {
              group: ['kysely/*'],
              allowTypeImports: true,
              message: 'Queries live in a service, server/db or server/auth.',
            },
          ],
        },
      ],
    },
  },
  // Libraries through their documented entry points only: no bundler runtime, no antd / rc-component internals (a
  // module swapped or parsed by path breaks silently with the next release). antd's components and locales by path
  // (`antd/es/table`, `antd/es/locale/zh_CN`) are documented and stay allowed.
  {
    files: ['**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@rspack/core/dist/*', 'webpack/*', '@rsbuild/core/dist/*', '@rsbuild/core/compiled/*'],
              message: "Bundler internals: use the bundler's documented configuration instead.",
            },
            {
              group: [
                'rc-util/*',
                '@rc-component/*/es/*',
                '@rc-component/*/lib/*',
                '@ant-design/cssinjs/*',
                '@ant-design/icons/lib/*',
                '@ant-design/icons/es/*',
                'antd/lib/*',
                'antd/es/_util/*',
                'antd/es/*/interface',
                'antd/es/*/style',
                'antd/es/*/style/*',
                'antd/es/theme/*',
                '*?original',
              ],
              message: "antd / rc-component internals: use antd's documented API (ConfigProvider, theme, components).",
            },
          ],
        },
      ],
    },
  },
  // No SQL in route files: any `.db` (ctx.db, app.ctx.db, { db } = ctx) belongs in a service.
  {
    files: ROUTE_FILES,
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[property.name='db']",
          message: 'Route files call a service; database access (ctx.db) lives in the service.',
        },
        {
          selector: "ObjectPattern > Property[key.name='db']",
          message: 'Route files call a service; database access (ctx.db) lives in the service.',
        },
      ],
    },
  },
  // Web code talks to the network only through the core request client and the tracking sender.
  {
    files: WEB_FILES,
    ignores: ['plugins/*/server/**', 'src/core/request/**', 'src/core/tracking/sender.ts', ...TEST_FILES],
    rules: {
      'no-restricted-globals': [
        'error',
        { name: 'fetch', message: 'Call the service through the core request client (src/core/request).' },
        { name: 'XMLHttpRequest', message: 'Call the service through the core request client (src/core/request).' },
      ],
      'no-restricted-properties': [
        'error',
        ...['window', 'globalThis', 'self'].map((object) => ({
          object,
          property: 'fetch',
          message: 'Call the service through the core request client (src/core/request).',
        })),
        { object: 'navigator', property: 'sendBeacon', message: 'Usage logs go through src/core/tracking/sender.ts.' },
      ],
    },
  },
);
