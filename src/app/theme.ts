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
    components: {
      Menu: { itemSelectedColor: 'rgba(255, 255, 255, 0.95)' },
      // White on the dark shade's light error red reads at 2.6:1; dark text on it reads at AA (a solid danger button).
      Button: { dangerColor: 'rgba(0, 0, 0, 0.88)' },
    },
  },
};

/**
 * antd's theme for an edition in one shade: its brand colour and the contrast fixes. The app renders with it
 * (antd.tsx) and the build writes the edition's stylesheets from it (rsbuild.config.ts), so they cannot drift. The
 * build also gives the dark sheet `darkText`, the brand's tint for links and the selected tab (scripts/lib/antd-sheet.ts
 * `darkTextColor`); the app reads neither colour in code, so its theme goes without. antd's run-time style generation
 * is off in the browser, where the sheets hold every rule; on the service antd generates the rules of what a page
 * renders (src/app/server.tsx puts them in the page).
 */
export function editionTheme(brandColor: string, shade: Shade = 'light', darkText?: string): ThemeConfig {
  const text = darkText ?? brandColor;
  return {
    ...(shade === 'dark' ? { algorithm: antdTheme.darkAlgorithm } : {}),
    token: { colorPrimary: brandColor, colorLink: text, colorInfo: brandColor, ...CONTRAST[shade].token },
    components: {
      ...CONTRAST[shade].components,
      ...(darkText ? { Tabs: { itemSelectedColor: text, itemHoverColor: text, itemActiveColor: text } } : {}),
    },
    // One theme and one antd per page: class names need no hash to keep themes apart (shorter selectors).
    hashed: false,
    cssVar: { key: THEME_CSS_VAR_KEY },
    zeroRuntime: typeof window !== 'undefined',
  };
}
