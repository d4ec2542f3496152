import type { IncomingHttpHeaders } from 'node:http';
import { isApiPath } from '../http/pipeline';

// A path whose last segment names a file (`/favicon.ico`, `/static/js/x.js`): a missing one is a plain 404, never the
// app's page. `.html` pages are pages.
const FILE_NAME = /\/[^/]*\.(?!html?$)[a-z0-9]+$/i;

/** The weight (q) an Accept header gives a media type, by its exact entry or else `type/*`; 0 when absent. */
export function acceptWeight(accept: string | undefined, mediaType: string): number {
  if (!accept) return 0;
  const wildcard = `${mediaType.split('/')[0]}/*`;
  let exact: number | undefined;
  let partial: number | undefined;
  for (const entry of accept.split(',')) {
    const [type, ...params] = entry.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    const weight = q === undefined ? 1 : Math.min(1, Number(q) || 0);
    if (type.trim() === mediaType) exact = Math.max(exact ?? 0, weight);
    else if (type.trim() === wildcard) partial = Math.max(partial ?? 0, weight);
  }
  return exact ?? partial ?? 0;
}

/**
 * Whether a request is a browser opening a page (so an unknown path gets the app's not-found page, not JSON): a GET
 * or HEAD outside the API prefixes, not sent by script (no `X-Requested-With`), not for a file, whose `Accept`
 * names `text/html` (itself or `text/*`) at least as high as JSON. Browsers send `text/html` first for a
 * navigation and never for a script, style, image or `fetch()`.
 */
export function isBrowserNavigation(method: string, url: string, headers: IncomingHttpHeaders): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  const pathname = url.split('?')[0];
  if (isApiPath(pathname) || pathname.startsWith('/static/') || FILE_NAME.test(pathname)) return false;
  if (headers['x-requested-with'] !== undefined) return false;
  const html = acceptWeight(headers.accept, 'text/html');
  return html > 0 && html >= acceptWeight(headers.accept, 'application/json');
}
