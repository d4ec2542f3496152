import type { ThemeConfig } from 'antd';

/**
 * The class that carries the theme's CSS variables. antd names it after a React id unless told; a fixed name lets
 * the stylesheet written at build time and the running app agree on it.
 */
export const THEME_CSS_VAR_KEY = 'css-var-app';

/**
 * antd's theme for an edition: its brand colour and the contrast fixes. The app renders with it (App.tsx) and the
 * build writes the edition's stylesheet from it (scripts/lib/antd-sheet.ts), so the two cannot drift.
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

/**
 * The theme as the app runs it: the same, with antd's run-time style generation off, because the edition's
 * stylesheet (built from `editionTheme`, scripts/lib/antd-sheet.ts) already holds every rule.
 */
export function runtimeTheme(brandColor: string): ThemeConfig {
  // On the service antd generates the rules of what a page renders (src/app/server.tsx puts them in the page).
  return { ...editionTheme(brandColor), zeroRuntime: typeof window !== 'undefined' };
}
