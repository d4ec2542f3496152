// What the service's page (server/html/render.ts) and the browser's app (src/app) agree on.
import type { ColorScheme } from './color-scheme';

/** Set on `#container` when the service rendered the page's first screen into it: the app hydrates it. */
export const FIRST_SCREEN_ATTR = 'data-first-screen';

/** The id of the page's link to the edition's dark sheet (its media: `darkSheetMedia`). */
export const DARK_SHEET_ID = 'antd-dark';

/**
 * The media of the edition's dark sheet for an account's choice: always, never, or when the system is dark. The
 * service writes it in the page (no flash of the other shade) and the app changes it when the choice changes.
 */
export function darkSheetMedia(scheme: ColorScheme): string {
  return scheme === 'dark' ? 'all' : scheme === 'light' ? 'not all' : '(prefers-color-scheme: dark)';
}
