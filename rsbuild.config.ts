import path from 'node:path';
import { defineConfig, type EnvironmentConfig } from '@rsbuild/core';
import { pluginReact } from '@rsbuild/plugin-react';
import {
  bundledPlugins,
  editionBuildPaths,
  editionsToBuild,
  assetUrl,
  referencedAssets,
  writeEditionEntries,
} from './scripts/lib/edition-build';
import { localeTag } from './schemas/locale';
import { darkTextColor, writeAntdSheets } from './scripts/lib/antd-sheet';
import { PageChunksPlugin, type PluginPages } from './scripts/lib/page-chunks';
import { SERVER_RENDERER_NAME } from './schemas/server-renderer';
import { DARK_SHEET_ID } from './schemas/first-screen';
import { editionTheme } from './src/app/theme';

// One rsbuild run, one compile for every edition found in editions/ (narrowed by EDITIONS=a,b): two environments,
// the browser's (`web`) and the service's renderer of first screens (`server`), each with one entry per edition. An
// edition differs only by its generated entry (scripts/lib/edition-build.ts: its manifest and plugin list), its antd
// sheets and its HTML; the code the editions share is built once.
const root = import.meta.dirname;
const paths = editionBuildPaths(root);
const only = process.env.EDITIONS?.split(',').filter(Boolean);
const editions = editionsToBuild(paths, only);
const webEntries: Record<string, string> = {};
const serverEntries: Record<string, string> = {};
const bundled: Record<string, PluginPages[]> = {};
/** Each edition's antd sheets, light and dark (with their .br and .gz): linked by its page, served from its folder. */
const sheets: Record<string, { light: string; dark: string }> = {};
for (const m of editions) {
  const { included, leftOut } = await bundledPlugins(m, paths);
  if (leftOut.length) console.log(`${m.id}: left out ${leftOut.join(', ')} (no section of theirs is in the menu)`);
  bundled[m.id] = included;
  // antd's whole stylesheet in the edition's theme and its dark shade (scripts/lib/antd-sheet.ts), once per theme.
  const brand = m.brand.color;
  const dark = editionTheme(brand, 'dark', darkTextColor(brand));
  sheets[m.id] = writeAntdSheets(path.join(root, '.generated', 'antd'), editionTheme(brand), dark);
  const entries = writeEditionEntries(
    m,
    paths,
    included.map((p) => p.id),
  );
  webEntries[m.id] = entries.web;
  // `<id>/render`: the renderer lands at dist/.server/<id>/render.cjs (schemas/server-renderer.ts).
  serverEntries[`${m.id}/${SERVER_RENDERER_NAME}`] = entries.server;
}

const environments: Record<string, EnvironmentConfig> = {
  web: {
    source: { entry: webEntries },
    output: {
      distPath: { root: paths.distDir },
      // Each edition's served folder (dist/<id>/) gets its brand's files and its antd sheet.
      copy: editions.flatMap((m) => [
        ...referencedAssets(m).map((rel) => ({
          from: path.join(paths.editionsDir, rel),
          to: path.join(m.id, 'edition', rel.replace(/^assets\//, '')),
        })),
        ...[sheets[m.id].light, sheets[m.id].dark].flatMap((sheet) =>
          ['', '.br', '.gz'].map((ext) => ({ from: sheet + ext, to: path.join(m.id, path.basename(sheet) + ext) })),
        ),
      ]),
      // NO_MINIFY=1: readable function names in a page's CPU profile (never for a release: the size budgets).
      ...(process.env.NO_MINIFY ? { minify: false } : {}),
    },
    // <id>/page-chunks.json: the lazy files of each page, which the service names in the page it serves.
    tools: { rspack: { plugins: [new PageChunksPlugin(bundled)] } },
    html: {
      template: './src/app/index.html',
      // dist/<id>/index.html: the edition's page template, beside its catalogues and brand files.
      outputStructure: 'nested',
      templateParameters: (params, { entryName }) => {
        const m = editions.find((e) => e.id === entryName)!;
        const locale = m.locale.default;
        return {
          ...params,
          htmlLang: localeTag(locale, 'html'),
          title: m.names.system[locale],
          brandColor: m.brand.color,
          icon: assetUrl(m.brand.favicon ?? m.brand.logo),
          antdSheet: `/${path.basename(sheets[m.id].light)}`,
          antdDarkSheet: `/${path.basename(sheets[m.id].dark)}`,
          darkSheetId: DARK_SHEET_ID,
        };
      },
    },
  },
  // The service's renderer of first screens (src/app/server.tsx): the same app for node, never served itself.
  server: {
    source: { entry: serverEntries },
    output: {
      target: 'node',
      // CommonJS: the service loads it with node's require (server/html/first-screen.ts).
      module: false,
      distPath: { root: path.join(paths.distDir, '.server') },
      filename: { js: '[name].cjs' },
      manifest: false,
      minify: false,
    },
    performance: { chunkSplit: { strategy: 'all-in-one' } },
  },
};

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
    // The app's own sheet (src/app/global.css, 1 KB) inside the page: linked, the first paint waited for it.
    inlineStyles: true,
    // scripts/build.ts empties dist/ first: the renderer's folder is inside the web environment's.
    cleanDistPath: false,
    filename: { js: '[name].[contenthash:8].js', css: '[name].[contenthash:8].css' },
    legalComments: 'none',
  },
  performance: {
    chunkSplit: {
      strategy: 'split-by-experience',
      // Named vendor groups so the size report can budget them. The first script's libraries stay in several files:
      // one file (~330 KB) was one compile task of up to 120 ms on a loaded phone-class core; five took 5-20 ms each.
      forceSplitting: {
        'lib-intl': /node_modules[\\/](react-intl|@formatjs|intl-messageformat)[\\/]/,
        'lib-mobx': /node_modules[\\/](mobx|mobx-react-lite)[\\/]/,
      },
      override: {
        // A shared lazy chunk over ~300 KB of source (under the size report's lazy budget of 50 KB gzip) is split in parts.
        maxAsyncSize: 300_000,
        cacheGroups: {
          // Few lazy scripts per page: the antd pieces most lazy files share travel together, not one small file per
          // combination of pages (eight against twelve: 2–5 scripts fewer on every page, sizes within ±16 KB).
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
