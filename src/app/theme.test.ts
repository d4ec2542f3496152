import { describe, expect, it } from 'vitest';
import { editionTheme, runtimeTheme, THEME_CSS_VAR_KEY } from './theme';

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
});
