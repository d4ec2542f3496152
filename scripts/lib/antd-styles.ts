// antd's styles for one edition, produced at build time. The app runs antd with `theme.zeroRuntime`, so no component
// rule is generated in the browser (the bulk of the first render's style work, and the <style> tags a CSP blocked);
// this stylesheet holds every rule the edition's components need and its theme's CSS variables. (antd 6 still writes
// the variable blocks at run time too, nonce'd; a nested theme such as the tokens panel's needs its own.)
// rsbuild.config.ts aliases `@antd-styles` to the file written here and src/app/main.tsx imports it, so it ships in
// the edition's one hashed index.css.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ThemeConfig } from 'antd';
import type { ReactElement, ReactNode } from 'react';

const require = createRequire(import.meta.url);

/**
 * Components a page renders only inside others and in states a bare render does not reach (a table's pager once it
 * has rows, a confirmation's buttons once it opens…): using the outer one needs their styles too.
 */
export const RENDERED_INSIDE: Readonly<Record<string, readonly string[]>> = {
  Avatar: ['Popover'],
  Card: ['Skeleton', 'Tabs'],
  DatePicker: ['Button'],
  Drawer: ['Skeleton'],
  Dropdown: ['Menu', 'Button', 'Space'],
  Form: ['Row', 'Col', 'Tooltip'],
  Input: ['Button', 'Space'],
  List: ['Pagination', 'Spin', 'Empty', 'Row', 'Col'],
  Menu: ['Tooltip'],
  Modal: ['Button', 'Skeleton'],
  Pagination: ['Select', 'Input'],
  Popconfirm: ['Popover', 'Button'],
  Select: ['Empty'],
  Steps: ['Tooltip'],
  Table: ['Pagination', 'Spin', 'Empty', 'Checkbox', 'Radio', 'Dropdown', 'Tooltip', 'Button'],
  Typography: ['Tooltip', 'Input'],
};

/** The web files of an edition's bundle: the core and shell (src/) and the web halves of its plugins. */
export function webSourceFiles(root: string, plugins: readonly string[]): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    if (!fs.existsSync(dir)) return;
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'server' && e.name !== 'node_modules') walk(p);
      } else if (/\.tsx?$/.test(e.name) && !/\.(test|d)\.tsx?$/.test(e.name) && e.name !== 'test-backend.ts') {
        files.push(p);
      }
    }
  };
  walk(path.join(root, 'src'));
  for (const id of plugins) walk(path.join(root, 'plugins', id));
  return files.sort();
}

const ANTD_IMPORT = /import\s+(type\s+)?\{([^}]*)\}\s*from\s*['"]antd['"]/g;
// `import x from 'antd/es/notification'` or `import(/* chunk name */ 'antd/es/notification')`; not `import type`.
const ANTD_MODULE_IMPORT =
  /(import\s+type\s[^'"]*?from\s*|import\s*\(\s*(?:\/\*[\s\S]*?\*\/\s*)?|from\s*)['"]antd\/es\/([\w-]+)['"]/g;

/**
 * What a source file uses of antd as values: names imported from 'antd' (`import { Button, message as toast }`,
 * type-only ones left out) and antd modules imported by path (`import('antd/es/notification')` gives
 * `es/notification`).
 */
export function antdImports(source: string): string[] {
  const names: string[] = [];
  for (const m of source.matchAll(ANTD_IMPORT)) {
    if (m[1]) continue;
    for (const part of m[2].split(',')) {
      const spec = part.trim();
      if (!spec || spec.startsWith('type ')) continue;
      names.push(spec.split(/\s+as\s+/)[0].trim());
    }
  }
  for (const m of source.matchAll(ANTD_MODULE_IMPORT)) if (!m[1].startsWith('import type')) names.push(`es/${m[2]}`);
  return names;
}

/**
 * The antd components whose styles an edition needs: what its web files use of antd, plus what those render inside
 * themselves (`RENDERED_INSIDE`). `exported` maps a name or module path (`es/button`) to antd's export names.
 */
export function componentsUsed(files: readonly string[], exported: ReadonlyMap<string, readonly string[]>): string[] {
  const found = new Set<string>();
  const add = (name: string) => {
    if (found.has(name)) return;
    found.add(name);
    for (const inner of RENDERED_INSIDE[name] ?? []) add(inner);
  };
  for (const f of files) {
    for (const used of antdImports(fs.readFileSync(f, 'utf8'))) for (const name of exported.get(used) ?? []) add(name);
  }
  return [...found].sort();
}

/**
 * antd's exports that render styles (components, and the `message`/`notification` holders), by name and by module
 * path (from antd's own index: `export { default as Button } from './button'`).
 */
export function styledExports(): Map<string, string[]> {
  const styled = (k: string) => (/^[A-Z]/.test(k) && k !== 'ConfigProvider') || k === 'message' || k === 'notification';
  const map = new Map<string, string[]>();
  for (const k of Object.keys(require('antd') as object)) if (styled(k)) map.set(k, [k]);
  const index = fs.readFileSync(require.resolve('antd/es/index.js'), 'utf8');
  for (const m of index.matchAll(/export \{ default as (\w+)[^}]*\} from '\.\/([\w-]+)'/g)) {
    if (styled(m[1])) map.set(`es/${m[2]}`, [...(map.get(`es/${m[2]}`) ?? []), m[1]]);
  }
  return map;
}

/** Drops the rules scoped to a CSS-variable class other than the theme's (antd's demo panels bring their own). */
export function keepThemeScope(css: string, key: string): string {
  let out = '';
  let depth = 0;
  let start = 0;
  for (let i = 0; i < css.length; i++) {
    const c = css[i];
    if (c === '{') depth++;
    else if (c === '}' && --depth === 0) {
      const rule = css.slice(start, i + 1);
      const selector = rule.slice(0, rule.indexOf('{'));
      const foreign = [...selector.matchAll(/\.(css-var-[\w-]+)/g)].some((m) => m[1] !== key);
      if (!foreign) out += rule;
      start = i + 1;
    }
  }
  return out + css.slice(start);
}

/**
 * The stylesheet of one theme and component list: @ant-design/icons' base rules (what it would inject), then every
 * rule and CSS variable antd generates for those components, rendered under the theme by
 * @ant-design/static-style-extract.
 */
export function extractAntdCss(theme: ThemeConfig, components: readonly string[]): string {
  const key = typeof theme.cssVar === 'object' ? theme.cssVar.key : undefined;
  if (!key) throw new Error('the theme needs a fixed cssVar.key, or the app would not find its CSS variables');
  const React = require('react') as typeof import('react');
  const { ConfigProvider, Form, Input } = require('antd') as typeof import('antd');
  const { extractStyle } =
    require('@ant-design/static-style-extract') as typeof import('@ant-design/static-style-extract');
  const { iconStyles } = require('@ant-design/icons/lib/utils') as { iconStyles: string };
  const h = React.createElement;
  // Sub-styles a bare <Form /> does not render: the item's own (FormItemInput's fallback style).
  const extra: ReactNode[] = [];
  if (components.includes('Form')) {
    extra.push(
      h(
        Form,
        { key: 'form-item' },
        h(Form.Item, { label: 'x', help: 'x', validateStatus: 'error', hasFeedback: true }, h(Input)),
      ),
    );
  }
  // antd warns about the deprecated components the extractor renders (Input.Group, List); not ours to act on.
  const { error, warn } = console;
  const quiet =
    (log: typeof console.error) =>
    (...args: unknown[]) => {
      if (!String(args[0]).startsWith('Warning: [antd')) log(...args);
    };
  console.error = quiet(error);
  console.warn = quiet(warn);
  let css: string;
  try {
    css = extractStyle({
      includes: [...components],
      customTheme: (node: ReactElement) =>
        h(ConfigProvider, { theme: { ...theme, zeroRuntime: false } }, node, ...extra),
    });
  } finally {
    console.error = error;
    console.warn = warn;
  }
  return `${iconStyles.replace(/\s*\n\s*/g, '')}\n${keepThemeScope(css, key)}\n`;
}

function versionOf(pkg: string): string {
  return (require(`${pkg}/package.json`) as { version: string }).version;
}

/**
 * Writes the stylesheet of one edition (theme + the components its files use) under `dir` and answers its path.
 * Kept by a key of everything it depends on, so a rebuild with the same inputs reuses it instead of rendering again.
 */
export function writeAntdStyles(dir: string, theme: ThemeConfig, files: readonly string[]): string {
  const components = componentsUsed(files, styledExports());
  const key = crypto
    .createHash('sha256')
    .update(
      JSON.stringify([
        ['antd', '@ant-design/cssinjs', '@ant-design/static-style-extract', '@ant-design/icons', 'react'].map(
          versionOf,
        ),
        theme,
        components,
        fs.readFileSync(new URL(import.meta.url), 'utf8'),
      ]),
    )
    .digest('hex')
    .slice(0, 16);
  const file = path.join(dir, `antd.${key}.css`);
  if (fs.existsSync(file)) {
    const now = new Date();
    fs.utimesSync(file, now, now);
    return file;
  }
  fs.mkdirSync(dir, { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, extractAntdCss(theme, components));
  fs.renameSync(tmp, file);
  pruneStale(dir);
  return file;
}

/**
 * Deletes the sheets no build has used for a week (an older theme, antd or component list); a build that needs one
 * again renders it again.
 */
function pruneStale(dir: string, maxAgeMs = 7 * 24 * 3600 * 1000): void {
  for (const name of fs.readdirSync(dir)) {
    if (!/^antd\.[0-9a-f]{16}\.css$/.test(name)) continue;
    const f = path.join(dir, name);
    try {
      if (Date.now() - fs.statSync(f).mtimeMs > maxAgeMs) fs.rmSync(f, { force: true });
    } catch {
      // Another build pruned it first.
    }
  }
}
