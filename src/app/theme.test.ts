import { describe, expect, it } from 'vitest';
import { FastColor } from '@ant-design/fast-color';
import { theme } from 'antd';
import { darkTextColor, editionTheme, runtimeTheme, THEME_CSS_VAR_KEY } from './theme';

describe('the antd theme of an edition', () => {
  it('carries the brand colour and a fixed CSS-variable class the built stylesheet uses', () => {
    const theme = editionTheme('#C75000');
    expect(theme.token).toMatchObject({ colorPrimary: '#C75000', colorLink: '#C75000', colorInfo: '#C75000' });
    expect(theme.cssVar).toEqual({ key: THEME_CSS_VAR_KEY });
    expect(theme.hashed).toBe(false);
  });

  it('runs as the same theme with run-time style generation off', () => {
    const { zeroRuntime, ...rest } = runtimeTheme('#1A73E8');
    expect(zeroRuntime).toBe(true);
    expect(rest).toEqual(editionTheme('#1A73E8'));
  });

  it("takes a tint of the brand that reads at AA on the dark shade's backgrounds for its links and tabs", () => {
    for (const brand of ['#006AD4', '#C75000', '#1A73E8', '#0B8235']) {
      const text = darkTextColor(brand);
      expect(text).not.toBe(brand);
      const dark = editionTheme(brand, 'dark');
      expect(dark.token?.colorLink).toBe(text);
      // As antd's dark algorithm makes the link colour of it: at least 4.5:1 on the dark container (#141414).
      const link = new FastColor(theme.getDesignToken(dark).colorLink).getLuminance();
      expect((link + 0.05) / (new FastColor('#141414').getLuminance() + 0.05)).toBeGreaterThanOrEqual(4.5);
      expect(dark.token?.colorPrimary).toBe(brand);
    }
  });
});
