// antd's stylesheet of one edition's theme, by antd's documented "whole export" (ant.design, Server Side Rendering):
// @ant-design/static-style-extract renders every antd component under the edition's theme and answers their CSS.
// The app runs antd with `theme.zeroRuntime` (src/app/theme.ts), so no component rule is generated in the browser;
// antd still registers its theme's CSS variables at run time (a few <style> elements, allowed by the page CSP).
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ThemeConfig } from 'antd';
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
  'ColorPicker', 'Descriptions', 'FloatButton', 'Image', 'InputNumber', 'Masonry', 'Mentions', 'Progress', 'QRCode',
  'Rate', 'Segmented', 'Slider', 'Splitter', 'Statistic', 'Timeline', 'Tour', 'Transfer', 'Tree', 'TreeSelect',
  'Upload', 'Watermark'
] as const;

/** Every antd rule and CSS variable of `theme` (but the unused components'), as one sheet. */
export function extractAntdCss(theme: ThemeConfig): string {
  const { createElement } = require('react') as typeof import('react');
  const { ConfigProvider } = require('antd') as typeof import('antd');
  const { extractStyle } =
    require('@ant-design/static-style-extract') as typeof import('@ant-design/static-style-extract');
  // antd warns about the deprecated components the extractor renders (Input.Group, List); not ours to act on.
  const { error, warn } = console;
  const quiet =
    (log: typeof console.error) =>
    (...args: unknown[]) => {
      if (!String(args[0]).startsWith('Warning: [antd')) log(...args);
    };
  console.error = quiet(error);
  console.warn = quiet(warn);
  try {
    return extractStyle({
      excludes: [...UNUSED_ANTD_COMPONENTS],
      customTheme: (node) => createElement(ConfigProvider, { theme: { ...theme, zeroRuntime: false } }, node),
    });
  } finally {
    console.error = error;
    console.warn = warn;
  }
}

/**
 * Writes the sheet of `theme` under `dir` with its `.br` and `.gz`, named by a hash of the theme and the versions that
 * render it, and answers its path; a build with the same inputs reuses the files instead of rendering and compressing
 * again (about a second each). The sheet is not part of the bundle: each edition's page links its own
 * (rsbuild.config.ts), so one compile serves every theme.
 */
export function writeAntdSheet(dir: string, theme: ThemeConfig): string {
  const versions = ['antd', '@ant-design/static-style-extract'].map(
    (pkg) => (require(`${pkg}/package.json`) as { version: string }).version,
  );
  const key = crypto
    .createHash('sha256')
    .update(JSON.stringify([versions, theme, UNUSED_ANTD_COMPONENTS]))
    .digest('hex')
    .slice(0, 16);
  const file = path.join(dir, `antd.${key}.css`);
  if (!['', '.br', '.gz'].every((ext) => fs.existsSync(file + ext))) {
    fs.mkdirSync(dir, { recursive: true });
    const tmp = path.join(dir, `tmp-${process.pid}-${key}.css`);
    fs.writeFileSync(tmp, extractAntdCss(theme));
    compressFile(tmp);
    for (const ext of ['.br', '.gz', '']) fs.renameSync(tmp + ext, file + ext);
  }
  return file;
}
