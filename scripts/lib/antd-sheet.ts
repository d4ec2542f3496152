// antd's stylesheet of one edition's theme, by antd's documented "whole export" (ant.design, Server Side Rendering):
// @ant-design/static-style-extract renders every antd component under the edition's theme and answers their CSS.
// The app runs antd with `theme.zeroRuntime` (src/app/theme.ts), so no component rule is generated in the browser;
// antd still registers its theme's CSS variables at run time (a few <style> elements, allowed by the page CSP).
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { generate } from '@ant-design/colors';
import { FastColor } from '@ant-design/fast-color';
import { theme as antdTheme, type ThemeConfig } from 'antd';
import { compressFile } from './compress-assets';

const require = createRequire(import.meta.url);

/**
 * antd's components the product does not use, left out of the sheet (the extractor's documented `excludes`): each is
 * one a page would show by itself, never one antd renders inside a component we use. A test checks that no source
 * imports one (scripts/lib/antd-sheet.test.ts): using one means taking it off this list.
 */
// prettier-ignore
export const UNUSED_ANTD_COMPONENTS = [
  'Affix', 'Anchor', 'App', 'AutoComplete', 'BackTop', 'Breadcrumb', 'Calendar', 'Carousel', 'Cascader', 'Collapse',
  'ColorPicker', 'FloatButton', 'Image', 'InputNumber', 'Masonry', 'Mentions', 'Progress', 'QRCode',
  'Rate', 'Segmented', 'Slider', 'Splitter', 'Statistic', 'Timeline', 'Tour', 'Transfer', 'Tree', 'TreeSelect',
  'Upload', 'Watermark'
] as const;

/** Every antd rule and CSS variable of `theme` (but the unused components'), as one sheet. */
export function extractAntdCss(theme: ThemeConfig): string {
  const { createElement } = require('react') as typeof import('react');
  const { ConfigProvider } = require('antd') as typeof import('antd');
  const { extractStyle } =
    require('@ant-design/static-style-extract') as typeof import('@ant-design/static-style-extract');
  // In a production build (scripts/build.ts) antd does not warn about the deprecated components the extractor renders.
  return extractStyle({
    excludes: [...UNUSED_ANTD_COMPONENTS],
    customTheme: (node) => createElement(ConfigProvider, { theme: { ...theme, zeroRuntime: false } }, node),
  });
}

/** WCAG's contrast ratio of two colours. */
function contrast(a: string, b: string): number {
  const [hi, lo] = [new FastColor(a).getLuminance(), new FastColor(b).getLuminance()].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * The brand colour as text on the dark shade (links, the selected tab; src/app/theme.ts `editionTheme`'s `darkText`):
 * the first tint of antd's dark palette of it that reads at AA on antd's dark page and container colours (#000000,
 * #141414), as antd's dark algorithm turns it into the link colour (a brand colour is often too dark for that itself).
 * Computed here, once per build: only the dark sheet carries it.
 */
export function darkTextColor(brandColor: string): string {
  const palette = generate(brandColor, { theme: 'dark', backgroundColor: '#141414' });
  const asLink = (c: string) =>
    antdTheme.getDesignToken({ algorithm: antdTheme.darkAlgorithm, token: { colorPrimary: brandColor, colorLink: c } })
      .colorLink;
  return (
    palette.slice(5).find((c) => ['#000000', '#141414'].every((bg) => contrast(asLink(c), bg) >= 4.5)) ?? palette[9]
  );
}

/** The CSS variable blocks of a sheet (`selector{--a:1;--b:2}`): selector → declarations, in order. */
function variableBlocks(css: string): Map<string, Map<string, string>> {
  const blocks = new Map<string, Map<string, string>>();
  for (const [, selector, body] of css.matchAll(/([^{}]+)\{(--[^{}]*)\}/g)) {
    const declarations = new Map<string, string>();
    for (const d of body.split(';').filter((x) => x.trim())) {
      const colon = d.indexOf(':');
      declarations.set(d.slice(0, colon).trim(), d.slice(colon + 1));
    }
    blocks.set(selector.trim(), declarations);
  }
  return blocks;
}

/**
 * The dark shade as a sheet over the light one: antd's rules are the same in both (only the values of its CSS
 * variables differ), so it holds the variables the dark theme changes, each block under `:root` so that it wins over
 * the light values wherever they are (the edition's sheet, a painted page's inline rules, antd's run-time blocks).
 */
export function darkOverLight(light: string, dark: string): string {
  const lightBlocks = variableBlocks(light);
  // The page itself (outside antd's components) in antd's dark layout colour, and the browser's own controls dark.
  let out = ':root{color-scheme:dark;background-color:#000}';
  for (const [selector, declarations] of variableBlocks(dark)) {
    const before = lightBlocks.get(selector);
    const changed = [...declarations].filter(([name, value]) => before?.get(name) !== value);
    if (!changed.length) continue;
    const scoped = selector
      .split(',')
      .map((s) => `:root ${s.trim()}`)
      .join(',');
    out += `${scoped}{${changed.map(([name, value]) => `${name}:${value}`).join(';')}}`;
  }
  return out;
}

/** Writes `css` as `<dir>/<name>.<key>.css` with its `.br` and `.gz`, unless there; answers its path. */
function writeSheet(dir: string, name: string, key: string, css: () => string): string {
  const file = path.join(dir, `${name}.${key}.css`);
  if (!['', '.br', '.gz'].every((ext) => fs.existsSync(file + ext))) {
    fs.mkdirSync(dir, { recursive: true });
    const tmp = path.join(dir, `tmp-${process.pid}-${name}-${key}.css`);
    fs.writeFileSync(tmp, css());
    compressFile(tmp);
    for (const ext of ['.br', '.gz', '']) fs.renameSync(tmp + ext, file + ext);
  }
  return file;
}

/**
 * Writes the edition's sheets under `dir`, each with its `.br` and `.gz`, named by a hash of the themes and the
 * versions that render them, and answers their paths: the light theme's whole sheet, and the dark shade over it
 * (`darkOverLight`). A build with the same inputs reuses the files instead of rendering and compressing again (about
 * a second each). The sheets are not part of the bundle: each edition's page links its own (rsbuild.config.ts), so
 * one compile serves every theme.
 */
export function writeAntdSheets(dir: string, light: ThemeConfig, dark: ThemeConfig): { light: string; dark: string } {
  const versions = ['antd', '@ant-design/static-style-extract'].map(
    (pkg) => (require(`${pkg}/package.json`) as { version: string }).version,
  );
  const hash = (theme: ThemeConfig) =>
    crypto
      .createHash('sha256')
      .update(JSON.stringify([versions, theme, String(theme.algorithm ?? ''), UNUSED_ANTD_COMPONENTS]))
      .digest('hex')
      .slice(0, 16);
  let lightCss: string | undefined;
  const lightFile = writeSheet(dir, 'antd', hash(light), () => (lightCss = extractAntdCss(light)));
  const darkFile = writeSheet(dir, 'antd-dark', hash(dark), () =>
    darkOverLight(lightCss ?? fs.readFileSync(lightFile, 'utf8'), extractAntdCss(dark)),
  );
  return { light: lightFile, dark: darkFile };
}
