// Lint: TypeScript rules plus one-way imports between the rooms of the house (see DESIGN.md).
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', '.generated/**', 'node_modules/**', 'data/**', 'test-results/**', 'playwright-report/**'] },
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
      'boundaries/include': ['src/**', 'plugins/**', 'server/**', 'schemas/**'],
      'boundaries/elements': [
        { type: 'schemas', pattern: 'schemas', mode: 'folder' },
        { type: 'core', pattern: 'src/core', mode: 'folder' },
        { type: 'shell', pattern: 'src/shell', mode: 'folder' },
        { type: 'app', pattern: 'src/app', mode: 'folder' },
        { type: 'plugin-server', pattern: 'plugins/*/server', mode: 'folder', capture: ['pluginId'] },
        { type: 'plugin-contract', pattern: 'plugins/*/contract.ts', mode: 'full', capture: ['pluginId'] },
        { type: 'plugin', pattern: 'plugins/*', mode: 'folder', capture: ['pluginId'] },
        { type: 'server', pattern: 'server', mode: 'folder' },
      ],
    },
    rules: {
      'boundaries/element-types': [
        'error',
        {
          default: 'disallow',
          rules: [
            { from: 'schemas', allow: ['schemas'] },
            { from: 'core', allow: ['core', 'schemas'] },
            { from: 'shell', allow: ['shell', 'core', 'schemas'] },
            { from: 'app', allow: ['app', 'shell', 'core', 'plugin', 'schemas'] },
            {
              from: 'plugin',
              allow: [
                'core',
                'schemas',
                ['plugin', { pluginId: '{{from.pluginId}}' }],
                ['plugin-contract', { pluginId: '{{from.pluginId}}' }],
              ],
            },
            { from: 'plugin-contract', allow: ['schemas'] },
            {
              from: 'plugin-server',
              allow: [
                'server',
                'schemas',
                ['plugin-server', { pluginId: '{{from.pluginId}}' }],
                ['plugin-contract', { pluginId: '{{from.pluginId}}' }],
              ],
            },
            { from: 'server', allow: ['server', 'schemas', 'plugin-server', 'plugin-contract'] },
          ],
        },
      ],
    },
  },
);
