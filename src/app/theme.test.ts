import { theme as antdTheme } from 'antd';
import { describe, expect, it, vi } from 'vitest';
import { editionTheme, precomputedAlgorithm, precomputeMapTokens, runtimeTheme, THEME_CSS_VAR_KEY } from './theme';

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

describe("the edition's map tokens, derived at build time", () => {
  it('gives antd exactly the tokens it would derive itself, without deriving them', () => {
    const precomputed = precomputeMapTokens('#C75000');
    expect(precomputed).toHaveLength(1);
    const derive = vi.fn(antdTheme.defaultAlgorithm);
    const app = { ...runtimeTheme('#C75000'), algorithm: precomputedAlgorithm(precomputed, derive) };
    expect(antdTheme.getDesignToken(app)).toEqual(antdTheme.getDesignToken(editionTheme('#C75000')));
    expect(derive).not.toHaveBeenCalled();
    expect(runtimeTheme('#C75000', precomputed).algorithm).toBeTypeOf('function');
  });

  it("answers a nested theme's tokens too when the build precomputed its seed under the edition's", () => {
    const panel = { colorError: '#cf1322', colorWarning: '#ad6800' };
    const derive = vi.fn(antdTheme.defaultAlgorithm);
    const app = {
      ...runtimeTheme('#C75000'),
      algorithm: precomputedAlgorithm(precomputeMapTokens('#C75000', [panel]), derive),
    };
    // antd merges a nested ConfigProvider's tokens over its parent's, keeping the parent's algorithm.
    const nested = { ...app, token: { ...app.token, ...panel } };
    const expected = { ...editionTheme('#C75000'), token: { ...editionTheme('#C75000').token, ...panel } };
    expect(antdTheme.getDesignToken(nested)).toEqual(antdTheme.getDesignToken(expected));
    expect(derive).not.toHaveBeenCalled();
  });

  it('derives the tokens of any other seed (a nested theme, another colour)', () => {
    const derive = vi.fn(antdTheme.defaultAlgorithm);
    const other = {
      ...runtimeTheme('#C75000'),
      algorithm: precomputedAlgorithm(precomputeMapTokens('#1A73E8'), derive),
    };
    expect(antdTheme.getDesignToken(other).colorPrimary).toBe(
      antdTheme.getDesignToken(editionTheme('#C75000')).colorPrimary,
    );
    expect(derive).toHaveBeenCalled();
  });
});
