import { describe, expect, it } from 'vitest';
import { parseVarBlockIndex, varBlockIndexRule } from './antd-var-blocks';

describe('the index of CSS-variable blocks', () => {
  it('reads back the selectors it was written with, quoted either way, and nothing from an empty list', () => {
    const rule = varBlockIndexRule(['.css-var-app', '.css-var-app.ant-btn']);
    expect(rule).toBe('#antd-var-blocks{--antd-var-blocks:".css-var-app|.css-var-app.ant-btn"}');
    expect(parseVarBlockIndex(' ".css-var-app|.css-var-app.ant-btn"')).toEqual([
      '.css-var-app',
      '.css-var-app.ant-btn',
    ]);
    expect(parseVarBlockIndex("'.css-var-x'")).toEqual(['.css-var-x']);
    expect(parseVarBlockIndex('""')).toEqual([]);
  });
});
