import path from 'node:path';
import { defineConfig, rspack, type EnvironmentConfig } from '@rsbuild/core';
import { pluginReact } from '@rsbuild/plugin-react';
import {
  bundledPlugins,
  editionBuildPaths,
  editionsToBuild,
  referencedAssets,
  toWebEdition,
  writePluginList,
} from './scripts/lib/edition-build';
import { localeTag } from './schemas/locale';
import { writeAntdSheet } from './scripts/lib/antd-sheet';
import { PageChunksPlugin } from './scripts/lib/page-chunks';
import { SERVER_RENDERER_NAME, SERVER_RENDERER_SUFFIX, serverRendererDir } from './schemas/server-renderer';
import { editionTheme } from './src/app/theme';

// One rsbuild run, one environment per edition manifest found in editions/ (narrowed by EDITIONS=a,b).
const root = import.meta.dirname;
const paths = editionBuildPaths(root);
const only = process.env.EDITIONS?.split(',').filter(Boolean);
const editions = editionsToBuild(paths, only);
const environments: Record<string, EnvironmentConfig> = {};
for (const m of editions) {
  const web = toWebEdition(m);
  const { included, leftOut } = await bundledPlugins(m, paths);
  if (leftOut.length) console.log(`${m.id}: left out ${leftOut.join(', ')} (no section of theirs is in the menu)`);
  const defaultLocale = m.locale.default;
  const source = { define: { __EDITION__: JSON.stringify(web) } };
  const resolve = {
    alias: {
      '@edition-plugins': writePluginList(
        m,
        paths,
        included.map((p) => p.id),
      ),
      // antd's whole stylesheet in the edition's theme (scripts/lib/antd-sheet.ts), imported by src/app/main.tsx.
      '@antd-styles/edition$': writeAntdSheet(path.join(root, '.generated', 'antd'), editionTheme(m.brand.color)),
    },
  };
  // The service's renderer of the first screen (src/app/server.tsx): the same app for node, one file, beside the
  // served folder (never served itself).
  environments[`${m.id}${SERVER_RENDERER_SUFFIX}`] = {
    source: { ...source, entry: { [SERVER_RENDERER_NAME]: './src/app/server.tsx' } },
    resolve,
    output: {
      target: 'node',
      // CommonJS: the service loads it with node's require (server/html/first-screen.ts).
      module: false,
      distPath: { root: serverRendererDir(paths.distDir, m.id) },
      filename: { js: '[name].cjs' },
      manifest: false,
      minify: false,
    },
    performance: { chunkSplit: { strategy: 'all-in-one' } },
    tools: { rspack: { plugins: [new rspack.optimize.LimitChunkCountPlugin({ maxChunks: 1 })] } },
  };
  environments[m.id] = {
    source: { ...source, entry: { index: './src/app/main.tsx' } },
    resolve,
    output: {
      distPath: { root: path.join(paths.distDir, m.id) },
      copy: referencedAssets(m).map((rel) => ({
        from: path.join(paths.editionsDir, rel),
        to: path.join('edition', rel.replace(/^assets\//, '')),
      })),
      // NO_MINIFY=1: readable function names in a page's CPU profile (never for a release: the size budgets).
      ...(process.env.NO_MINIFY ? { minify: false } : {}),
    },
    // page-chunks.json: the lazy files of each page, which the service names in the page it serves.
    tools: {
      rspack: {
        plugins: [new PageChunksPlugin(included)],
      },
    },
    html: {
      template: './src/app/index.html',
      favicon: path.join(paths.editionsDir, m.brand.favicon ?? m.brand.logo),
      templateParameters: {
        htmlLang: localeTag(defaultLocale, 'html'),
        title: m.names.system[defaultLocale],
        brandColor: m.brand.color,
        noscript:
          defaultLocale === 'zh_CN' ? '请启用 JavaScript 后使用本页面。' : 'Please enable JavaScript to use this page.',
      },
    },
  };
}

export default defineConfig({
  plugins: [pluginReact()],
  environments,
  resolve: {
    aliasStrategy: 'prefer-alias',
    // The catalogues arrive compiled (messages-loader below, and the service's page catalogue): no ICU parser needed.
    alias: { '@formatjs/icu-messageformat-parser$': '@formatjs/icu-messageformat-parser/lib/no-parser.js' },
  },
  security: { nonce: 'CSP_NONCE_PLACEHOLDER' },
  output: {
    manifest: true,
    cleanDistPath: true,
    filename: { js: '[name].[contenthash:8].js', css: '[name].[contenthash:8].css' },
    legalComments: 'none',
  },
  performance: {
    chunkSplit: {
      strategy: 'split-by-experience',
      // Named vendor groups so the size report can budget them; the rest falls into named async chunks. The first
      // script's libraries stay in several files: merged into one (~330 KB), the page waited for its compile on the
      // main thread in one task of up to 120 ms on a loaded phone-class core, where five files waited 5-20 ms each.
      forceSplitting: {
        'lib-intl': /node_modules[\\/](react-intl|@formatjs|intl-messageformat)[\\/]/,
        'lib-mobx': /node_modules[\\/](mobx|mobx-react-lite)[\\/]/,
      },
      override: {
        // A shared lazy chunk over about 400 KB of module source (~50 KB gzip, the size report's budget for every lazy
        // chunk) is split in parts.
        maxAsyncSize: 400_000,
        cacheGroups: {
          // Few lazy scripts per page: each is a request and a task of the page's loader (server/html/first-screen.ts).
          // antd's pieces (and their helpers) that most lazy files share: the root, the buttons, forms, menus and
          // icons every page shows travel together (in parts of at most maxAsyncSize), instead of one small file per
          // combination of pages using them. Eight: the size report's page table (vpc, zh_CN) against twelve: 2–5
          // scripts fewer on every page, 1–7 KB gzip less on ten of its thirteen pages, 9–16 KB more on three (sign-in,
          // SSO, e-mail). Lower moves more antd into every page (six, against eight: sign-in +8 KB for 2 scripts fewer).
          'ui-shared': {
            test: /[\\/]node_modules[\\/]/,
            chunks: 'async',
            minChunks: 8,
            name: 'ui-shared',
            priority: 10,
          },
        },
      },
    },
  },
  dev: { progressBar: false },
  tools: {
    // Shared chunks that rspack creates on its own get names derived from their modules, not bare ids.
    rspack: {
      optimization: { chunkIds: 'named' },
      module: {
        rules: [
          {
            test: /[\\/]messages[\\/](zh_CN|en_US)\.json$/,
            type: 'json',
            use: [{ loader: path.join(root, 'scripts/lib/messages-loader.ts') }],
          },
        ],
      },
    },
  },
});
