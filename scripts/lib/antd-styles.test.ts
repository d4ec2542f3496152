import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  antdImports,
  componentsUsed,
  extractAntdCss,
  keepThemeScope,
  styledExports,
  webSourceFiles,
  writeAntdStyles,
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

  it('lists the web files of the chosen plugins only, without tests and server halves', () => {
    const root = tempDir();
    for (const f of [
      'src/app/main.tsx',
      'src/app/main.test.tsx',
      'plugins/a/pages/A.tsx',
      'plugins/a/server/routes.ts',
      'plugins/b/index.ts',
    ]) {
      fs.mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
      fs.writeFileSync(path.join(root, f), '');
    }
    expect(webSourceFiles(root, ['a']).map((f) => path.relative(root, f))).toEqual([
      'plugins/a/pages/A.tsx',
      'src/app/main.tsx',
    ]);
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
});
