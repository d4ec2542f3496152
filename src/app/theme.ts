import { theme as antdTheme, type ThemeConfig } from 'antd';

/**
 * The class that carries the theme's CSS variables. antd names it after a React id unless told; a fixed name lets
 * the stylesheet written at build time and the running app agree on it.
 */
export const THEME_CSS_VAR_KEY = 'css-var-app';

/**
 * antd's theme for an edition: its brand colour and the contrast fixes. The app renders with it (App.tsx) and the
 * build writes the edition's stylesheet from it (scripts/lib/antd-styles.ts), so the two cannot drift.
 */
export function editionTheme(brandColor: string): ThemeConfig {
  return {
    token: {
      colorPrimary: brandColor,
      colorLink: brandColor,
      colorInfo: brandColor,
      // antd's default greys (45%) and error red fail WCAG AA contrast on white.
      colorTextDescription: 'rgba(0, 0, 0, 0.65)',
      colorTextSecondary: 'rgba(0, 0, 0, 0.65)',
      colorTextTertiary: 'rgba(0, 0, 0, 0.62)',
      colorError: '#cf1322',
    },
    // Dark text on the brand tint reads at AA whatever the brand colour is.
    components: { Menu: { itemSelectedColor: 'rgba(0, 0, 0, 0.88)' } },
    // One theme and one antd per page: class names need no hash to keep themes apart (shorter selectors).
    hashed: false,
    cssVar: { key: THEME_CSS_VAR_KEY },
  };
}

/** A seed token and the map tokens antd derives from it, computed at build time (`precomputeMapTokens`). */
export interface PrecomputedMapTokens {
  /** The seed as `seedKey` writes it. */
  seed: string;
  map: Record<string, unknown>;
}

/** A seed token as one string, whatever the order of its keys (antd merges the seed from several objects). */
export function seedKey(seed: object): string {
  return JSON.stringify(Object.fromEntries(Object.entries(seed).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
}

/**
 * The map tokens of the edition's seed (what antd's default algorithm derives: colour palettes, sizes), and of each
 * nested theme's seed under it (`nested`: a plugin's theme.json tokens, which antd merges over the edition's), for
 * the build to put in the bundle: in the browser each derivation is some ten milliseconds of a phone's start.
 */
export function precomputeMapTokens(
  brandColor: string,
  nested: readonly Record<string, unknown>[] = [],
): PrecomputedMapTokens[] {
  const seed = { ...antdTheme.defaultSeed, ...editionTheme(brandColor).token };
  return [seed, ...nested.map((token) => ({ ...seed, ...token }))].map((s) => ({
    seed: seedKey(s),
    map: antdTheme.defaultAlgorithm(s) as unknown as Record<string, unknown>,
  }));
}

type Algorithm = typeof antdTheme.defaultAlgorithm;

/**
 * antd's default algorithm (`derive`) that answers a copy of the precomputed map tokens for their own seeds; any other
 * seed is derived.
 */
export function precomputedAlgorithm(
  precomputed: readonly PrecomputedMapTokens[],
  derive: Algorithm = antdTheme.defaultAlgorithm,
): Algorithm {
  const bySeed = new Map(precomputed.map((p) => [p.seed, p.map]));
  return (seed) => {
    const map = bySeed.get(seedKey(seed));
    return map ? ({ ...map } as unknown as ReturnType<Algorithm>) : derive(seed);
  };
}

/**
 * The theme as the app runs it: the same, with antd's run-time style generation off, because the edition's
 * stylesheet (built from `editionTheme`) already holds every rule and CSS variable; with the map tokens the build
 * derived, antd does not derive them again.
 */
export function runtimeTheme(brandColor: string, precomputed?: readonly PrecomputedMapTokens[]): ThemeConfig {
  return {
    ...editionTheme(brandColor),
    zeroRuntime: true,
    ...(precomputed ? { algorithm: precomputedAlgorithm(precomputed) } : {}),
  };
}
