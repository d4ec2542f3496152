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
import { pluginTheme, writeEditionStyleSheets } from './scripts/lib/antd-styles';
import { PageChunksPlugin } from './scripts/lib/page-chunks';
import { SERVER_RENDERER_NAME, SERVER_RENDERER_SUFFIX, serverRendererDir } from './schemas/server-renderer';
import { editionTheme, precomputeMapTokens } from './src/app/theme';

// One rsbuild run, one environment per edition manifest found in editions/ (narrowed by EDITIONS=a,b).
const root = import.meta.dirname;
const paths = editionBuildPaths(root);
const only = process.env.EDITIONS?.split(',').filter(Boolean);
const editions = editionsToBuild(paths, only);
/** What a lazy core group's sheet resolves to when it needs no rule beyond the core's. */
const EMPTY_SHEET = path.join(root, 'src/app/empty.css');

const environments: Record<string, EnvironmentConfig> = {};
for (const m of editions) {
  const web = toWebEdition(m);
  const { included, leftOut } = await bundledPlugins(m, paths);
  if (leftOut.length) console.log(`${m.id}: left out ${leftOut.join(', ')} (no section of theirs is in the menu)`);
  const defaultLocale = m.locale.default;
  // antd's sheets in the edition's theme: the core's, the date picker's and each plugin's. Written now; each file is
  // named by all its inputs, so builds into any dist folder share them and an unchanged one is not rendered again.
  const sheets = writeEditionStyleSheets(
    root,
    path.join(root, '.generated', 'antd-styles'),
    editionTheme(m.brand.color),
    included,
  );
  const source = {
    define: {
      __EDITION__: JSON.stringify(web),
      // antd's map tokens of the edition's theme and of the plugins' nested themes under it, derived once here rather
      // than on every page's start (src/app/theme.ts).
      __ANTD_MAP_TOKENS__: JSON.stringify(
        precomputeMapTokens(
          m.brand.color,
          included.flatMap((id) => pluginTheme(root, id)?.token ?? []),
        ),
      ),
    },
  };
  const resolve = {
    alias: {
      '@edition-plugins': writePluginList(m, paths, included, sheets.plugins),
      '@antd-styles/core$': sheets.core,
      '@antd-styles/date-picker$': sheets.lazy['date-picker'] ?? EMPTY_SHEET,
    },
  };
  // The service's renderer of the first screen (src/app/server.tsx): the same app for node, one file, beside the
  // served folder (never served itself).
  environments[`${m.id}${SERVER_RENDERER_SUFFIX}`] = {
    source: { ...source, entry: { [SERVER_RENDERER_NAME]: './src/app/server.tsx' } },
    resolve,
    output: {
      target: 'node',
      // CommonJS: the service evaluates it itself (server/html/first-screen.ts), past the loader hooks of tsx.
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
        plugins: [
          new PageChunksPlugin(included.map((id) => ({ id, indexFile: path.join(paths.pluginsDir, id, 'index.ts') }))),
        ],
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
      plugins: [
        // antd's helpers add a few <style> tags at run time without a nonce (scroll lock, scrollbar measure): every
        // import of rc-util's dynamicCSS (by package path, or `./Dom/dynamicCSS` inside it) gets the wrapper that adds
        // the page nonce. The wrapper's own import of the original carries a query, so it is left alone.
        new rspack.NormalModuleReplacementPlugin(
          /^(\.\/Dom|@rc-component\/util\/(es|lib)\/Dom)\/dynamicCSS(\.js)?$/,
          path.join(root, 'src/app/style-nonce.ts'),
        ),
        // cssinjs's registration of a component's CSS variables (its own `./hooks/useCSSVarRegister` import) gets the
        // wrapper that derives nothing for a block the edition's sheets hold. The wrapper's import carries a query.
        new rspack.NormalModuleReplacementPlugin(
          /^\.\/hooks\/useCSSVarRegister(\.js)?$/,
          path.join(root, 'src/app/css-var-register.ts'),
        ),
      ],
    },
  },
});
