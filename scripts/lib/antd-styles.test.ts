import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  withVarBlockIndex,
  antdImports,
  componentsUsed,
  extractAntdCss,
  keepThemeScope,
  LAZY_CORE_GROUPS,
  OPT_IN_STATES,
  rulesNotIn,
  styledExports,
  topLevelRules,
  statesNotAsked,
  webFilesUnder,
  withoutStates,
  writeAntdStyles,
  writeEditionStyleSheets,
  nestedUnder,
} from './antd-styles';

const THEME = {
  token: { colorPrimary: '#c75000' },
  components: { Menu: { itemSelectedColor: 'rgba(0, 0, 0, 0.88)' } },
  hashed: false,
  cssVar: { key: 'css-var-app' },
};

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'antd-styles-'));
}

/** Writes `files` (path under `root` → text) with their folders. */
function writeFiles(root: string, files: Record<string, string>): void {
  for (const [f, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
    fs.writeFileSync(path.join(root, f), text);
  }
}

describe('antd styles at build time', () => {
  it('reads the antd values a file uses: names, renamed names, modules by path; not types', () => {
    const source = [
      "import { Button, message as toast, type FormInstance } from 'antd';",
      "import type { TableProps } from 'antd';",
      "import type { ColumnsType } from 'antd/es/table';",
      'const n = () => import(/* webpackChunkName: "core-notification" */ \'antd/es/notification\');',
    ].join('\n');
    expect(antdImports(source)).toEqual(['Button', 'message', 'es/notification']);
  });

  it('adds what a component renders inside itself, and only antd components', () => {
    const dir = tempDir();
    const file = path.join(dir, 'Page.tsx');
    fs.writeFileSync(file, "import { Popconfirm, theme, Typography } from 'antd';\nimport('antd/es/notification');");
    const used = componentsUsed([file], styledExports());
    expect(used).toEqual(expect.arrayContaining(['Popconfirm', 'Popover', 'Button', 'Typography', 'notification']));
    expect(used).not.toContain('theme');
    expect(used).not.toContain('Table');
  });

  it("lists a folder's web files, without tests and server halves", () => {
    const root = tempDir();
    const names = [
      'src/app/main.tsx',
      'src/app/main.test.tsx',
      'plugins/a/pages/A.tsx',
      'plugins/a/server/routes.ts',
      'plugins/b/index.ts',
    ];
    writeFiles(root, Object.fromEntries(names.map((f) => [f, ''])));
    expect(webFilesUnder(path.join(root, 'plugins', 'a')).map((f) => path.relative(root, f))).toEqual([
      'plugins/a/pages/A.tsx',
    ]);
    expect(webFilesUnder(path.join(root, 'src')).map((f) => path.relative(root, f))).toEqual(['src/app/main.tsx']);
  });

  it("drops rules scoped to another theme's variables", () => {
    const css = '.css-var-app{--a:1;}.css-var-_R_1_{--a:2;}.css-var-_R_1_.ant-btn{--b:1;}.ant-btn{color:red;}';
    expect(keepThemeScope(css, 'css-var-app')).toBe('.css-var-app{--a:1;}.ant-btn{color:red;}');
  });

  it("writes every rule and the theme's variables under its fixed class, with the icons' base rules", () => {
    const css = extractAntdCss(THEME, ['Button', 'Menu', 'Form', 'Row', 'Col']);
    // Booleans, not matchers: a failure should not print 100 KB of CSS.
    expect(/^\.anticon \{display: inline-flex;/.test(css), "icons' base rules first").toBe(true);
    expect(/\.css-var-app\{[^}]*--ant-color-primary:#c75000;/.test(css), 'brand colour on the fixed class').toBe(true);
    expect(css.includes('--ant-menu-item-selected-color:rgba(0, 0, 0, 0.88);'), 'component token').toBe(true);
    expect(css.includes('.ant-btn{'), 'button rules').toBe(true);
    expect(css.includes('.ant-form-item'), 'form item rules').toBe(true);
    expect(/css-var-_/.test(css), 'no variables of another theme').toBe(false);
    // No hash class: the app runs with `hashed: false` too.
    expect(css.includes(':where(.css-'), 'no hash class').toBe(false);
  });

  it('refuses a theme without a fixed CSS-variable class', () => {
    expect(() => extractAntdCss({ token: {} }, ['Button'])).toThrow(/cssVar\.key/);
  });

  it('writes once per set of inputs and reuses the file', () => {
    const dir = tempDir();
    const src = path.join(dir, 'Page.tsx');
    fs.writeFileSync(src, "import { Button } from 'antd';");
    const file = writeAntdStyles(dir, THEME, [src]);
    fs.appendFileSync(file, '/* kept */');
    expect(writeAntdStyles(dir, THEME, [src])).toBe(file);
    expect(fs.readFileSync(file, 'utf8').endsWith('/* kept */'), 'not rendered again').toBe(true);
    expect(writeAntdStyles(dir, { ...THEME, token: { colorPrimary: '#1a73e8' } }, [src])).not.toBe(file);
  });

  it('splits the sheets by where components are used, and loses no rule', () => {
    // Rendering components apart gives the rules of rendering them together (but the cssinjs cache list).
    const core = extractAntdCss(THEME, ['Button', 'Form', 'Input']);
    const more = extractAntdCss(THEME, ['Button', 'Select', 'Tag']);
    const together = extractAntdCss(THEME, ['Button', 'Form', 'Input', 'Select', 'Tag']);
    const extra = rulesNotIn(more, core);
    const cachePath = (r: string) => r.trim().startsWith('.data-ant-cssinjs-cache-path');
    const both = new Set([...topLevelRules(core).rules, ...topLevelRules(extra).rules].map((r) => r.trim()));
    const needed = topLevelRules(together).rules.filter((r) => !cachePath(r));
    expect(needed.filter((r) => !both.has(r.trim()))).toEqual([]);
    expect(extra).toContain('.ant-select');
    expect(extra).toContain('.ant-tag');
    expect(extra).not.toContain('.ant-btn{');
    expect(topLevelRules(extra).rules.filter(cachePath)).toEqual([]);
  });

  it("writes an edition's sheets: the core, the lazy date picker, and only the plugins that need more", () => {
    const root = tempDir();
    const files: Record<string, string> = {
      'src/app/main.tsx': "import { Button, Form } from 'antd';",
      [LAZY_CORE_GROUPS['date-picker'][0]]: "const p = import('antd/es/date-picker');",
      'plugins/a/pages/A.tsx': "import { Button, Tag } from 'antd';",
      'plugins/b/pages/B.tsx': "import { Form } from 'antd';",
    };
    writeFiles(root, files);
    const sheets = writeEditionStyleSheets(root, path.join(root, 'out'), THEME, ['a', 'b']);
    const core = fs.readFileSync(sheets.core, 'utf8');
    expect(core).toContain('.ant-btn');
    expect(core, 'the date picker is not in the core sheet').not.toContain('.ant-picker-panel');
    expect(fs.readFileSync(sheets.lazy['date-picker']!, 'utf8')).toContain('.ant-picker-panel');
    expect(fs.readFileSync(sheets.plugins.a!, 'utf8')).toContain('.ant-tag');
    expect(fs.readFileSync(sheets.plugins.a!, 'utf8')).not.toContain('.ant-btn{');
    expect(sheets.plugins.b, 'nothing beyond the core').toBeUndefined();
  });

  it("keeps every plugin's header items to the core's components (they do not wait for the plugin's sheet)", () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const exported = styledExports();
    const core = new Set(componentsUsed(webFilesUnder(path.join(root, 'src')), exported));
    const RELATIVE_IMPORT = /(?:from\s*|import\s*\(\s*(?:\/\*[\s\S]*?\*\/\s*)?)['"](\.{1,2}\/[^'"]+)['"]/g;
    const resolve = (from: string, spec: string) =>
      ['.tsx', '.ts', '/index.tsx', '/index.ts']
        .map((ext) => path.resolve(path.dirname(from), spec) + ext)
        .find((f) => fs.existsSync(f));
    let checked = 0;
    for (const id of fs.readdirSync(path.join(root, 'plugins'))) {
      const index = path.join(root, 'plugins', id, 'index.ts');
      const block = fs.existsSync(index)
        ? /headerItems:\s*\[([\s\S]*?)\n\s*\]/.exec(fs.readFileSync(index, 'utf8'))
        : null;
      if (!block) continue;
      // The header items' modules and what they import of the plugin's own files, transitively.
      const files = new Set<string>();
      const visit = (file: string | undefined) => {
        if (!file || files.has(file) || !file.startsWith(path.join(root, 'plugins', id))) return;
        files.add(file);
        for (const m of fs.readFileSync(file, 'utf8').matchAll(RELATIVE_IMPORT)) visit(resolve(file, m[1]));
      };
      for (const m of block[1].matchAll(RELATIVE_IMPORT)) visit(resolve(index, m[1]));
      expect(files.size, `${id}'s header items found`).toBeGreaterThan(0);
      const beyond = componentsUsed([...files], exported).filter((c) => !core.has(c));
      expect(beyond, `${id}'s header items use antd components only its pages' sheet has`).toEqual([]);
      checked++;
    }
    expect(checked).toBeGreaterThan(0);
  });
});

describe('opt-in states', () => {
  const ALL = ['sized columns', 'right to left', 'dark menu', 'horizontal menu'];

  it('drops what only a state left out matches, selector by selector, and keeps the rest byte for byte', () => {
    const css = [
      '.ant-col{position:relative}',
      '.ant-col-24{flex:0 0 100%}',
      '.ant-col-push-3,.ant-col-offset-3{margin-inline-start:12.5%}',
      '.ant-row>.ant-form-item-label,.ant-row>.ant-col-xl-24.ant-form-item-label{margin:0}',
      '.ant-form-item-control:first-child:not([class^="\'ant-col-\'"]),.ant-x:is(.a,.b){width:100%}',
      '@media (min-width:576px){.ant-col-sm-24{display:block}.ant-col-sm-order-2{order:2}}',
      '@media (max-width:575px){.ant-form-item-label{padding:0}.ant-col-xs-24.ant-form-item-label{padding:0}}',
      '.ant-btn-rtl{direction:rtl}',
      '.ant-menu-light,.ant-menu-dark{color:red}',
      '.ant-menu-horizontal>.ant-menu-item{top:1px}',
      '@keyframes spin{0%{transform:none}to{transform:rotate(1turn)}}',
      '@font-face{font-family:x;src:url(x.woff2)}',
      '.ant-color-picker{color:red}',
    ].join('');
    expect(withoutStates(css, ALL)).toBe(
      [
        '.ant-col{position:relative}',
        '.ant-row>.ant-form-item-label{margin:0}',
        '.ant-form-item-control:first-child:not([class^="\'ant-col-\'"]),.ant-x:is(.a,.b){width:100%}',
        '@media (max-width:575px){.ant-form-item-label{padding:0}}',
        '.ant-menu-light{color:red}',
        '@keyframes spin{0%{transform:none}to{transform:rotate(1turn)}}',
        '@font-face{font-family:x;src:url(x.woff2)}',
        '.ant-color-picker{color:red}',
      ].join(''),
    );
    expect(withoutStates(css, []), 'nothing left out').toBe(css);
    expect(withoutStates('.ant-btn-rtl{a:b}.ant-col-6{c:d}', ['right to left'])).toBe('.ant-col-6{c:d}');
  });

  it('keeps a state for sources that can ask for it', () => {
    const dir = tempDir();
    const file = (name: string, text: string) => {
      fs.writeFileSync(path.join(dir, name), text);
      return path.join(dir, name);
    };
    const bare = file('Bare.tsx', 'import { Form, Menu } from \'antd\';\nconst f = <Menu mode="inline" />;');
    expect(statesNotAsked([bare])).toEqual(ALL);
    const kept = (name: string, text: string) =>
      ALL.filter((s) => !statesNotAsked([bare, file(name, text)]).includes(s));
    expect(kept('Col.tsx', "import { Row, Col } from 'antd';")).toEqual(['sized columns']);
    expect(kept('Label.tsx', 'const f = <Form labelCol={{ span: 6 }} />;')).toEqual(['sized columns']);
    expect(kept('Grid.tsx', "import Grid from 'antd/es/grid';")).toEqual(['sized columns']);
    expect(kept('List.tsx', 'const l = <List grid={{ column: 2 }} />;')).toEqual(['sized columns']);
    expect(kept('Rtl.tsx', '<ConfigProvider direction="rtl" />')).toEqual(['right to left']);
    expect(kept('Dark.tsx', '<Menu theme="dark" mode="horizontal" />')).toEqual(['dark menu', 'horizontal menu']);
  });

  it('the sheet of a bare form has no sized column rule, a sheet for sized columns has them', () => {
    const sized = OPT_IN_STATES[0].selector;
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'Form.tsx'), "import { Form } from 'antd';");
    const bare = fs.readFileSync(writeAntdStyles(dir, THEME, [path.join(dir, 'Form.tsx')]), 'utf8');
    expect(bare.includes('.ant-col{'), 'the bare column stays').toBe(true);
    expect(sized.test(bare), 'no sized column').toBe(false);
    expect(/-rtl\b/.test(bare), 'no right-to-left rule').toBe(false);
    fs.writeFileSync(path.join(dir, 'Sized.tsx'), "import { Form } from 'antd';\nconst x = { labelCol: 6 };");
    const full = fs.readFileSync(writeAntdStyles(dir, THEME, [path.join(dir, 'Sized.tsx')]), 'utf8');
    expect(sized.test(full), 'sized columns kept').toBe(true);
  });

  it("gives a plugin that asks for a state the core's sheet left out its rules in the plugin's own sheet", () => {
    const root = tempDir();
    const files: Record<string, string> = {
      'src/app/main.tsx': "import { Button, Form } from 'antd';",
      [LAZY_CORE_GROUPS['date-picker'][0]]: '',
      'plugins/a/pages/A.tsx': "import { Form } from 'antd';\nconst f = <Form labelCol={{ span: 6 }} />;",
    };
    writeFiles(root, files);
    const sheets = writeEditionStyleSheets(root, path.join(root, 'out'), THEME, ['a']);
    const sized = OPT_IN_STATES[0].selector;
    expect(sized.test(fs.readFileSync(sheets.core, 'utf8')), 'not in the core').toBe(false);
    expect(sized.test(fs.readFileSync(sheets.plugins.a!, 'utf8')), "in the plugin's sheet").toBe(true);
  });
});

describe('nestedUnder', () => {
  const edition = {
    token: { colorPrimary: '#0050b3', colorError: '#cf1322' },
    hashed: false,
    cssVar: { key: 'css-var-app' },
  };

  it("lays a plugin's nested tokens over the edition's, under the nested theme's own class", () => {
    const nested = nestedUnder(edition, { token: { colorWarning: '#ad6800' }, cssVar: { key: 'css-var-panel' } });
    expect(nested.token).toEqual({ colorPrimary: '#0050b3', colorError: '#cf1322', colorWarning: '#ad6800' });
    expect(nested.cssVar).toEqual({ key: 'css-var-panel' });
    expect(nested.hashed).toBe(false);
  });

  it('refuses a nested theme without a fixed class (the page would not find its variables)', () => {
    expect(() => nestedUnder(edition, { token: { colorWarning: '#ad6800' } })).toThrow(/cssVar\.key/);
  });

  it("the tokens panel's theme names its class", () => {
    const theme = JSON.parse(
      fs.readFileSync(path.join(import.meta.dirname, '../../plugins/access-tokens/theme.json'), 'utf8'),
    ) as { cssVar: { key: string } };
    expect(theme.cssVar.key).toBe('css-var-access-tokens');
  });
});

describe('withVarBlockIndex', () => {
  it('heads a sheet with one index of its variable blocks, replacing any index of the sheets it was made of', () => {
    const part = withVarBlockIndex('.a{color:red}.css-var-app{--x:1}');
    expect(part).toBe('#antd-var-blocks{--antd-var-blocks:".css-var-app"}.a{color:red}.css-var-app{--x:1}');
    const joined = withVarBlockIndex(`${part}.css-var-tokens.ant-btn{--y:2}.b{color:blue}`);
    expect(joined).toBe(
      '#antd-var-blocks{--antd-var-blocks:".css-var-app|.css-var-tokens.ant-btn"}' +
        '.a{color:red}.css-var-app{--x:1}.css-var-tokens.ant-btn{--y:2}.b{color:blue}',
    );
  });
});
