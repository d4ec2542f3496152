// Rules on the web app's page paths that the service applies too (server/html/page-chunks.ts).

/** A page's path as the rules compare it: without trailing slashes (`/users/notifications/` is the same page). */
export function pagePath(pathname: string): string {
  return pathname.replace(/\/+$/, '') || '/';
}

/** The sidebar key of a settings page (`/users/settings/<key>/…`), which the settings shell and its section render. */
export function settingsSectionKey(pathname: string): string | undefined {
  return /^\/users\/settings\/([^/]+)/.exec(pathname)?.[1];
}

/**
 * Pages of the web app's own (src/app/App.tsx), not of a plugin: what the service counts as known besides the
 * plugins' routes and the settings pages (any `/users/settings/…` path: its shell decides).
 */
export const CORE_PAGES: readonly string[] = ['/users/settings', '/users/errors'];
