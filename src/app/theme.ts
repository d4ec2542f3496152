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
 * The map tokens of the edition's seed (what antd's default algorithm derives: colour palettes, sizes), for the build
 * to put in the bundle: in the browser that derivation is some ten milliseconds of a phone's start, in one piece.
 */
export function precomputeMapTokens(brandColor: string): PrecomputedMapTokens {
  const seed = { ...antdTheme.defaultSeed, ...editionTheme(brandColor).token };
  return { seed: seedKey(seed), map: antdTheme.defaultAlgorithm(seed) as unknown as Record<string, unknown> };
}

type Algorithm = typeof antdTheme.defaultAlgorithm;

/**
 * antd's default algorithm (`derive`) that answers a copy of the precomputed map tokens for their own seed; any other
 * seed (a nested theme's) is derived.
 */
export function precomputedAlgorithm(
  precomputed: PrecomputedMapTokens,
  derive: Algorithm = antdTheme.defaultAlgorithm,
): Algorithm {
  return (seed) =>
    seedKey(seed) === precomputed.seed ? ({ ...precomputed.map } as unknown as ReturnType<Algorithm>) : derive(seed);
}

/**
 * The theme as the app runs it: the same, with antd's run-time style generation off, because the edition's
 * stylesheet (built from `editionTheme`) already holds every rule and CSS variable; with the map tokens the build
 * derived, antd does not derive them again.
 */
export function runtimeTheme(brandColor: string, precomputed?: PrecomputedMapTokens): ThemeConfig {
  return {
    ...editionTheme(brandColor),
    zeroRuntime: true,
    ...(precomputed ? { algorithm: precomputedAlgorithm(precomputed) } : {}),
  };
}
