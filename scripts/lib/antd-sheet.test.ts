import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FastColor } from '@ant-design/fast-color';
import { theme } from 'antd';
import { darkOverLight, darkTextColor, UNUSED_ANTD_COMPONENTS } from './antd-sheet';

const root = path.join(import.meta.dirname, '../..');

/** Every TypeScript file of the web app: src/ and the plugins' web halves. */
function webSources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).flatMap((e) => {
    const file = path.join(e.parentPath, e.name);
    return e.isFile() && /\.tsx?$/.test(e.name) && !file.includes(`${path.sep}server${path.sep}`) ? [file] : [];
  });
}

describe("the edition's antd sheet", () => {
  it('leaves out only components no source uses', () => {
    const used = new Set<string>();
    for (const file of [...webSources(path.join(root, 'src')), ...webSources(path.join(root, 'plugins'))]) {
      const text = fs.readFileSync(file, 'utf8');
      for (const m of text.matchAll(/import\s+\{([^}]*)\}\s*from\s*'antd'/g))
        for (const name of m[1].split(',')) used.add(name.trim().split(/\s+as\s+/)[0]);
      for (const m of text.matchAll(/'antd\/es\/([a-z-]+)'/g))
        used.add(m[1].replace(/(^|-)(\w)/g, (_x, _d, c: string) => c.toUpperCase()));
    }
    expect(UNUSED_ANTD_COMPONENTS.filter((c) => used.has(c))).toEqual([]);
  });
});

describe('the dark shade over the light sheet', () => {
  const light =
    '.css-var-app{--ant-color-bg:#fff;--ant-radius:6px}.ant-btn{color:var(--ant-color-bg)}' +
    '.css-var-app.ant-btn,.css-var-app.ant-btn-css-var{--ant-button-bg:#fff;--ant-button-pad:4px}';
  const dark =
    '.css-var-app{--ant-color-bg:#141414;--ant-radius:6px}.ant-btn{color:var(--ant-color-bg)}' +
    '.css-var-app.ant-btn,.css-var-app.ant-btn-css-var{--ant-button-bg:#000;--ant-button-pad:4px}';

  it('holds only the variables the dark theme changes, each selector under :root (over the light values)', () => {
    const css = darkOverLight(light, dark);
    expect(css).toContain(':root .css-var-app{--ant-color-bg:#141414}');
    expect(css).toContain(':root .css-var-app.ant-btn,:root .css-var-app.ant-btn-css-var{--ant-button-bg:#000}');
    expect(css).not.toContain('--ant-radius');
    expect(css).not.toContain('--ant-button-pad');
    expect(css).not.toContain('.ant-btn{color');
    expect(css.startsWith(':root{color-scheme:dark;')).toBe(true);
  });
});

describe("the dark sheet's link colour", () => {
  it("is a tint of the brand that antd's dark algorithm makes a link colour at AA on the dark backgrounds", () => {
    for (const brand of ['#006AD4', '#C75000', '#1A73E8', '#0B8235']) {
      const text = darkTextColor(brand);
      expect(text).not.toBe(brand);
      const dark = { algorithm: theme.darkAlgorithm, token: { colorPrimary: brand, colorLink: text } };
      const link = new FastColor(theme.getDesignToken(dark).colorLink).getLuminance();
      for (const bg of ['#000000', '#141414'])
        expect((link + 0.05) / (new FastColor(bg).getLuminance() + 0.05)).toBeGreaterThanOrEqual(4.5);
    }
  });
});
