import { describe, expect, it } from 'vitest';
import { editionTheme, THEME_CSS_VAR_KEY } from './theme';

describe('the antd theme of an edition', () => {
  it('carries the brand colour and a fixed CSS-variable class the built stylesheet uses, run-time styles off', () => {
    const theme = editionTheme('#C75000');
    expect(theme.token).toMatchObject({ colorPrimary: '#C75000', colorLink: '#C75000', colorInfo: '#C75000' });
    expect(theme.cssVar).toEqual({ key: THEME_CSS_VAR_KEY });
    expect(theme.hashed).toBe(false);
    expect(theme.zeroRuntime).toBe(true);
  });

  it("gives the dark shade the build's tint of the brand for links and the selected tab, when the build names one", () => {
    const dark = editionTheme('#006AD4', 'dark', '#3c89e8');
    expect(dark.token).toMatchObject({ colorPrimary: '#006AD4', colorLink: '#3c89e8' });
    expect(dark.components?.Tabs).toEqual({
      itemSelectedColor: '#3c89e8',
      itemHoverColor: '#3c89e8',
      itemActiveColor: '#3c89e8',
    });
    expect(editionTheme('#006AD4', 'dark').components?.Tabs).toBeUndefined();
  });
});
