// antd's styles for one edition, produced at build time. The app runs antd with `theme.zeroRuntime`, so no component
// rule is generated in the browser (the bulk of the first render's style work, and the <style> tags a CSP blocked);
// the sheets written here hold every rule the edition's components need and its theme's CSS variables. (antd 6 still
// writes the variable blocks at run time too, nonce'd.) A plugin whose pages put a part under other tokens keeps that
// nested theme in `plugins/<id>/theme.json`, with a fixed `cssVar.key`: its variables join the plugin's sheet.
// They are split by where the components are used, so a page downloads and parses the rules it can show:
// - the core's sheet: what src/ uses (the frames, the shell, the common pieces), with the theme's variables.
//   rsbuild.config.ts aliases `@antd-styles/core` to it and src/app/main.tsx imports it: it joins index.css;
// - a plugin's sheet: the rules its files need that the core's sheet lacks. The generated plugin list gives the
//   plugin a `styles` loader, and the registry waits for it before any page, section or header item of the plugin;
// - the date picker's (`@antd-styles/date-picker`), loaded with antd's date picker by src/core/ui/LazyDatePicker.
// A sheet leaves out the rules of the states its sources never ask for (`OPT_IN_STATES`: sized grid columns, right to
// left, the dark and the horizontal menu); a plugin that asks gets them in its own sheet.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ThemeConfig } from 'antd';
import type { ReactElement, ReactNode } from 'react';
import { cssVarSelector, VAR_BLOCK_INDEX_SELECTOR, varBlockIndexRule } from '../../schemas/antd-var-blocks';

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

/** Files the core loads lazily, with their own sheet (their rules are not in the core's): group → files under root. */
export const LAZY_CORE_GROUPS: Readonly<Record<string, readonly string[]>> = {
  'date-picker': ['src/core/ui/LazyDatePicker.tsx'],
};

/** The web source files under `dir`: TypeScript, without tests, declarations and server halves. */
export function webFilesUnder(dir: string): string[] {
  const files: string[] = [];
  const walk = (d: string) => {
    if (!fs.existsSync(d)) return;
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'server' && e.name !== 'node_modules') walk(p);
      } else if (/\.tsx?$/.test(e.name) && !/\.(test|d)\.tsx?$/.test(e.name) && e.name !== 'test-backend.ts') {
        files.push(p);
      }
    }
  };
  walk(dir);
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
 * States of antd's components that only a source file can ask for, with the class their rules name and what asking
 * looks like in a source. An edition's sheets leave a state's rules out unless one of the files they are made for asks
 * (a guess that errs on the side of keeping: any mention counts).
 * - sized columns: `<Col span={6} md={8}>`, a Form's `labelCol`/`wrapperCol`, a List's `grid` give an element the
 *   class `ant-col-6`, `ant-col-md-8`, `ant-col-offset-2`…; the bare Col inside every Form.Item has `ant-col` alone
 *   (~60 KB: 24 spans, offsets, pushes and orders for each of seven breakpoints);
 * - right to left: `ant-btn-rtl`… only under a ConfigProvider `direction="rtl"`;
 * - the dark and the horizontal menu: a Menu's `theme="dark"`, `mode="horizontal"` (~21 KB).
 */
export const OPT_IN_STATES: readonly { state: string; selector: RegExp; asked: (source: string) => boolean }[] = [
  {
    state: 'sized columns',
    selector: /\.ant-col-(?:(?:xs|sm|md|lg|xl|xxl|xxxl)-)?(?:(?:push|pull|offset|order)-)?(?:\d+|flex)\b/,
    asked: (source) =>
      /\b(?:labelCol|wrapperCol)\b|\bgrid=\{/.test(source) ||
      antdImports(source).some((n) => /^(Col|Grid|es\/(col|grid))$/.test(n)),
  },
  { state: 'right to left', selector: /-rtl\b/, asked: (source) => /\brtl\b/.test(source) },
  { state: 'dark menu', selector: /\.ant-menu-dark\b/, asked: (source) => /\bdark\b/.test(source) },
  { state: 'horizontal menu', selector: /\.ant-menu-horizontal\b/, asked: (source) => /\bhorizontal\b/.test(source) },
];

/** The opt-in states (`OPT_IN_STATES`) no file of `files` asks for, by name. */
export function statesNotAsked(files: readonly string[]): string[] {
  const sources = files.map((f) => fs.readFileSync(f, 'utf8'));
  return OPT_IN_STATES.filter((s) => !sources.some(s.asked)).map((s) => s.state);
}

/** A selector list split at its top-level commas (a comma inside `:not(…)` or `[…]` stays). */
function selectorList(selector: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i];
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(selector.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(selector.slice(start));
  return parts;
}

/**
 * `css` without the rules of the opt-in states named (`OPT_IN_STATES`): a selector naming one's class leaves its
 * list, a rule left with none goes, and so does an at-rule block left empty. Everything else stays byte for byte.
 */
export function withoutStates(css: string, states: readonly string[]): string {
  const classes = OPT_IN_STATES.filter((s) => states.includes(s.state)).map((s) => s.selector);
  if (!classes.length) return css;
  const keep = (rule: string): string => {
    const open = rule.indexOf('{');
    const head = rule.slice(0, open);
    if (head.trimStart().startsWith('@')) {
      const inner = topLevelRules(rule.slice(open + 1, -1));
      if (!inner.rules.some((r) => r.includes('{'))) return rule;
      const kept = inner.rules.map(keep).join('');
      return kept ? `${head}{${kept}${inner.rest}}` : '';
    }
    const selectors = selectorList(head);
    const kept = selectors.filter((sel) => !classes.some((c) => c.test(sel)));
    if (kept.length === selectors.length) return rule;
    return kept.length ? `${kept.join(',')}${rule.slice(open)}` : '';
  };
  const { rules, rest } = topLevelRules(css);
  return rules.map(keep).join('') + rest;
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

/** The top-level rules of a stylesheet (an at-rule with its block counts as one), and what trails the last one. */
export function topLevelRules(css: string): { rules: string[]; rest: string } {
  const rules: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < css.length; i++) {
    const c = css[i];
    if (c === '{') depth++;
    else if (c === '}' && --depth === 0) {
      rules.push(css.slice(start, i + 1));
      start = i + 1;
    }
  }
  return { rules, rest: css.slice(start) };
}

/**
 * `css` headed by the index of its CSS-variable blocks (schemas/antd-var-blocks.ts), any index it had dropped: a sheet
 * put together from others (a plugin's rules and its nested theme's) gets one index of all its blocks.
 */
export function withVarBlockIndex(css: string): string {
  const { rules, rest } = topLevelRules(css);
  const kept = rules.filter((r) => !r.trim().startsWith(`${VAR_BLOCK_INDEX_SELECTOR}{`));
  const selectors = kept.map((r) => cssVarSelector(r.trim())).filter((s): s is string => !!s);
  return varBlockIndexRule([...new Set(selectors)]) + kept.join('') + rest;
}

/** Drops the rules scoped to a CSS-variable class other than the theme's (antd's demo panels bring their own). */
export function keepThemeScope(css: string, key: string): string {
  const { rules, rest } = topLevelRules(css);
  const own = rules.filter((rule) => {
    const selector = rule.slice(0, rule.indexOf('{'));
    return ![...selector.matchAll(/\.(css-var-[\w-]+)/g)].some((m) => m[1] !== key);
  });
  return own.join('') + rest;
}

/**
 * The rules of `css` that `base` does not have, in their order. Rendering components apart gives the same rules as
 * rendering them together (checked by the tests), so a page with both sheets has every rule it had with one. The
 * cssinjs cache list (`.data-ant-cssinjs-cache-path`, a hint for hydrating run-time styles, which the app has none
 * of) names every component rendered, so it differs for every set and stays in the base alone.
 */
export function rulesNotIn(css: string, base: string): string {
  const known = new Set(topLevelRules(base).rules.map((r) => r.trim()));
  return topLevelRules(css)
    .rules.map((r) => r.trim())
    .filter((r) => !known.has(r) && !r.startsWith('.data-ant-cssinjs-cache-path'))
    .join('');
}

/**
 * The stylesheet of one theme and component list: @ant-design/icons' base rules (what it would inject), then every
 * rule and CSS variable antd generates for those components, rendered under the theme by
 * @ant-design/static-style-extract, but the rules of the opt-in states `leftOut` (`OPT_IN_STATES`).
 */
export function extractAntdCss(
  theme: ThemeConfig,
  components: readonly string[],
  leftOut: readonly string[] = [],
): string {
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
  const own = keepThemeScope(css, key);
  return `${iconStyles.replace(/\s*\n\s*/g, '')}\n${withoutStates(own, leftOut)}\n`;
}

function versionOf(pkg: string): string {
  return (require(`${pkg}/package.json`) as { version: string }).version;
}

/**
 * Writes a sheet under `dir` named by a key of everything it depends on (`inputs`, the packages that render it and
 * this file), and answers its path; a rebuild with the same inputs reuses it instead of rendering again.
 */
function writeKept(dir: string, inputs: unknown, render: () => string): string {
  const key = crypto
    .createHash('sha256')
    .update(
      JSON.stringify([
        ['antd', '@ant-design/cssinjs', '@ant-design/static-style-extract', '@ant-design/icons', 'react'].map(
          versionOf,
        ),
        inputs,
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
  const css = render();
  fs.writeFileSync(tmp, css.trim() ? withVarBlockIndex(css) : css);
  fs.renameSync(tmp, file);
  pruneStale(dir);
  return file;
}

/** Writes the full stylesheet of a theme and the components `files` use (see `writeKept`); answers its path. */
export function writeAntdStyles(dir: string, theme: ThemeConfig, files: readonly string[]): string {
  const components = componentsUsed(files, styledExports());
  const leftOut = statesNotAsked(files);
  return writeKept(dir, [theme, components, leftOut], () => extractAntdCss(theme, components, leftOut));
}

/**
 * Writes the sheet of the rules the components `files` use need beyond the sheet `base` (see `rulesNotIn`); answers
 * its path, or undefined when they need nothing more.
 */
export function writeAntdExtraStyles(
  dir: string,
  theme: ThemeConfig,
  files: readonly string[],
  base: string,
): string | undefined {
  const components = componentsUsed(files, styledExports());
  const leftOut = statesNotAsked(files);
  const file = writeKept(dir, [theme, components, leftOut, fs.readFileSync(base, 'utf8')], () =>
    rulesNotIn(extractAntdCss(theme, components, leftOut), fs.readFileSync(base, 'utf8')),
  );
  return fs.statSync(file).size > 0 ? file : undefined;
}

/**
 * A plugin's nested theme (`plugins/<id>/theme.json`) as it applies under the edition's: antd merges a nested
 * ConfigProvider's tokens over its parent's, and the nested theme names its own variables' class.
 */
export function nestedUnder(theme: ThemeConfig, nested: ThemeConfig): ThemeConfig {
  const key = typeof nested.cssVar === 'object' ? nested.cssVar.key : undefined;
  if (!key) throw new Error('a nested theme needs a fixed cssVar.key, or the page would not find its CSS variables');
  return {
    ...theme,
    token: { ...theme.token, ...nested.token },
    components: { ...theme.components, ...nested.components },
    cssVar: { key },
  };
}

/** A plugin's nested theme (`plugins/<id>/theme.json`), or undefined when it has none. */
export function pluginTheme(root: string, id: string): ThemeConfig | undefined {
  const themeFile = path.join(root, 'plugins', id, 'theme.json');
  return fs.existsSync(themeFile) ? (JSON.parse(fs.readFileSync(themeFile, 'utf8')) as ThemeConfig) : undefined;
}

/**
 * A plugin's sheet: the rules its components need beyond the core's, then, with a nested theme, what that theme adds
 * (its variables, under its own class). Answers the path, or undefined when the plugin needs nothing more.
 */
function writePluginStyles(
  root: string,
  dir: string,
  theme: ThemeConfig,
  id: string,
  core: string,
): string | undefined {
  const files = webFilesUnder(path.join(root, 'plugins', id));
  const extra = writeAntdExtraStyles(dir, theme, files, core);
  const ownTheme = pluginTheme(root, id);
  if (!ownTheme) return extra;
  const nested = nestedUnder(theme, ownTheme);
  const components = componentsUsed(files, styledExports());
  const leftOut = statesNotAsked(files);
  const known = fs.readFileSync(core, 'utf8') + (extra ? fs.readFileSync(extra, 'utf8') : '');
  return writeKept(dir, [nested, components, leftOut, known], () => {
    const own = extra ? fs.readFileSync(extra, 'utf8') : '';
    return own + rulesNotIn(extractAntdCss(nested, components, leftOut), known);
  });
}

/** An edition's antd sheets: the core's, each lazy core group's and each plugin's (absent when it needs none). */
export interface EditionStyleSheets {
  core: string;
  lazy: Record<string, string | undefined>;
  plugins: Record<string, string | undefined>;
}

/** Writes the antd sheets of an edition with the plugins `plugins` (see the head of this file). */
export function writeEditionStyleSheets(
  root: string,
  dir: string,
  theme: ThemeConfig,
  plugins: readonly string[],
): EditionStyleSheets {
  const lazyFiles = new Map(
    Object.entries(LAZY_CORE_GROUPS).map(([group, files]) => [group, files.map((f) => path.join(root, f))]),
  );
  const lazy = new Set([...lazyFiles.values()].flat());
  const core = writeAntdStyles(
    dir,
    theme,
    webFilesUnder(path.join(root, 'src')).filter((f) => !lazy.has(f)),
  );
  return {
    core,
    lazy: Object.fromEntries(
      [...lazyFiles].map(([group, files]) => [group, writeAntdExtraStyles(dir, theme, files, core)]),
    ),
    plugins: Object.fromEntries(plugins.map((id) => [id, writePluginStyles(root, dir, theme, id, core)])),
  };
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
