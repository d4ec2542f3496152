import { generate } from '@ant-design/colors';
import { FastColor } from '@ant-design/fast-color';
import { theme as antdTheme, type ThemeConfig } from 'antd';

/**
 * The class that carries the theme's CSS variables. antd names it after a React id unless told; a fixed name lets
 * the stylesheet written at build time and the running app agree on it.
 */
export const THEME_CSS_VAR_KEY = 'css-var-app';

/** A theme's look: antd's light or dark algorithm. */
export type Shade = 'light' | 'dark';

/** antd's default greys (45 %), error red and warning amber fail WCAG AA contrast; these read at AA on each shade's background. */
const CONTRAST: Record<Shade, ThemeConfig> = {
  light: {
    token: {
      colorTextDescription: 'rgba(0, 0, 0, 0.65)',
      colorTextSecondary: 'rgba(0, 0, 0, 0.65)',
      colorTextTertiary: 'rgba(0, 0, 0, 0.62)',
      colorError: '#cf1322',
      colorWarning: '#ad6800',
    },
    // Dark text on the brand tint reads at AA whatever the brand colour is.
    components: { Menu: { itemSelectedColor: 'rgba(0, 0, 0, 0.88)' } },
  },
  dark: {
    token: {
      colorTextDescription: 'rgba(255, 255, 255, 0.68)',
      colorTextSecondary: 'rgba(255, 255, 255, 0.68)',
      colorTextTertiary: 'rgba(255, 255, 255, 0.62)',
      colorError: '#ff7875',
    },
    components: { Menu: { itemSelectedColor: 'rgba(255, 255, 255, 0.95)' } },
  },
};

/** WCAG's contrast ratio of two colours. */
function contrast(a: string, b: string): number {
  const [hi, lo] = [new FastColor(a).getLuminance(), new FastColor(b).getLuminance()].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** antd's dark page and container colours: text must read on both. */
const DARK_BACKGROUNDS = ['#000000', '#141414'];

/**
 * The brand colour as text on the dark shade (links, the selected tab): the first tint of antd's dark palette of it
 * that reads at AA on antd's dark backgrounds, as antd's dark algorithm turns it into the link colour (a brand colour
 * is often too dark for that itself).
 */
export function darkTextColor(brandColor: string): string {
  const palette = generate(brandColor, { theme: 'dark', backgroundColor: '#141414' });
  const asLink = (c: string) =>
    antdTheme.getDesignToken({ algorithm: antdTheme.darkAlgorithm, token: { colorPrimary: brandColor, colorLink: c } })
      .colorLink;
  return palette.slice(5).find((c) => DARK_BACKGROUNDS.every((bg) => contrast(asLink(c), bg) >= 4.5)) ?? palette[9];
}

/**
 * antd's theme for an edition in one shade: its brand colour and the contrast fixes. The app renders with it
 * (App.tsx) and the build writes the edition's stylesheets from it (scripts/lib/antd-sheet.ts), so they cannot drift.
 */
export function editionTheme(brandColor: string, shade: Shade = 'light'): ThemeConfig {
  const text = shade === 'dark' ? darkTextColor(brandColor) : brandColor;
  return {
    ...(shade === 'dark' ? { algorithm: antdTheme.darkAlgorithm } : {}),
    token: { colorPrimary: brandColor, colorLink: text, colorInfo: brandColor, ...CONTRAST[shade].token },
    components: {
      ...CONTRAST[shade].components,
      ...(shade === 'dark' ? { Tabs: { itemSelectedColor: text, itemHoverColor: text, itemActiveColor: text } } : {}),
    },
    // One theme and one antd per page: class names need no hash to keep themes apart (shorter selectors).
    hashed: false,
    cssVar: { key: THEME_CSS_VAR_KEY },
  };
}

/**
 * The theme as the app runs it: the same, with antd's run-time style generation off, because the edition's
 * stylesheets (built from `editionTheme`, scripts/lib/antd-sheet.ts) already hold every rule.
 */
export function runtimeTheme(brandColor: string, shade: Shade = 'light'): ThemeConfig {
  // On the service antd generates the rules of what a page renders (src/app/server.tsx puts them in the page).
  return { ...editionTheme(brandColor, shade), zeroRuntime: typeof window !== 'undefined' };
}
