import type { IncomingHttpHeaders } from 'node:http';
import accepts from 'accepts';
import { isApiPath } from '../http/pipeline';

// A path whose last segment names a file (`/favicon.ico`, `/static/js/x.js`): a missing one is a plain 404, never the
// app's page. `.html` pages are pages.
const FILE_NAME = /\/[^/]*\.(?!html?$)[a-z0-9]+$/i;

/**
 * Whether a request is a browser opening a page (so an unknown path gets the app's not-found page, not JSON): a GET
 * or HEAD outside the API prefixes, not sent by script (no `X-Requested-With`), not for a file, whose `Accept`
 * prefers `text/html` (itself or `text/*`) to JSON (by `accepts`, on a tie JSON: "any type" alone is not a browser).
 * Browsers send `text/html` first for a navigation and never for a script, style, image or `fetch()`.
 */
export function isBrowserNavigation(method: string, url: string, headers: IncomingHttpHeaders): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  const pathname = url.split('?')[0];
  if (isApiPath(pathname) || pathname.startsWith('/static/') || FILE_NAME.test(pathname)) return false;
  if (headers['x-requested-with'] !== undefined) return false;
  return accepts({ headers } as Parameters<typeof accepts>[0]).type(['json', 'html']) === 'html';
}
