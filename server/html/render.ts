import crypto from 'node:crypto';
import type { PageConfig } from '../../schemas/page-config';
import { STYLE_SHEET_ID } from '../../schemas/first-screen';
import { localeTag } from '../../schemas/locale';
import { decodeAttr, firstScreenGuard, lateScriptLoader, type FirstScreenParts } from './first-screen';

/** The page configuration's one definition is the wire schema, shared with the web app. */
export type { PageConfig } from '../../schemas/page-config';

/** The placeholder rsbuild writes as the nonce of every script and style tag. */
export const NONCE_PLACEHOLDER = 'CSP_NONCE_PLACEHOLDER';

/** A fresh 128-bit nonce for one response. */
export function newNonce(): string {
  return crypto.randomBytes(16).toString('base64');
}

/** JSON that cannot close the surrounding script element or start an HTML comment. */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

const PAGE_CONFIG_RE = /<script\b([^>]*\bid=["']page-config["'][^>]*)>[\s\S]*?<\/script>/i;

/** The app's entry script tag (rsbuild's entry `index`), before which the page's lazy files are named. */
const ENTRY_SCRIPT_RE = /<script\b[^>]*\bsrc="[^"]*\/index\.[0-9a-f]+\.js"[^>]*><\/script>/;

const attr = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** A script tag the build or the service wrote: deferred, from this origin, with the nonce placeholder. */
const DEFER_SCRIPT_RE = /<script defer src="([^"]+)" nonce="CSP_NONCE_PLACEHOLDER"><\/script>/g;

const EMPTY_CONTAINER = '<div id="container"></div>';

/**
 * Fills the built index.html: page configuration into its script tag, the page's lazy files (`chunks`, from
 * page-chunks.json) before the entry script, and one nonce everywhere the placeholder is. The lazy scripts are
 * `defer` like the entry: they run first and only register their modules, so the app finds them loaded instead of
 * adding a script element per chunk. Stylesheets are preloaded, not linked: a linked one would hold the first paint
 * until it arrived, while the app adds it (from the cache) when the page that needs it renders, and waits for it.
 *
 * With a `firstScreen` (server/html/first-screen.ts) the page is painted from the HTML: it goes into the container,
 * its styles into a nonce'd sheet, the page's stylesheets are linked (the screen needs them), a small inline script
 * at the head holds what the visitor does on it until the app is there, and the scripts load once the screen is
 * painted, from a small inline loader at the end. (Preloading them, even lib-react alone, held the first paint
 * by about a second in Lighthouse's runs on 2 cores.)
 */
export function renderIndexHtml(
  template: string,
  config: PageConfig,
  nonce: string,
  chunks: string[] = [],
  firstScreen?: FirstScreenParts,
): string {
  let html = template.replace(PAGE_CONFIG_RE, (_m, attrs: string) => {
    const withNonce = /\bnonce=/.test(attrs) ? attrs : `${attrs} nonce="${NONCE_PLACEHOLDER}"`;
    // A function replacement keeps `$` sequences in the JSON literal.
    return `<script${withNonce}>${scriptSafeJson(config)}</script>`;
  });
  // The page's language is the one the app will show (the browser picks fonts by it, CJK punctuation above all), not
  // the edition's default the build wrote.
  const locale = config.bootstrap?.locale;
  if (locale) html = html.replace(/<html lang="[^"]*"/, `<html lang="${localeTag(locale, 'html')}"`);
  const painted = firstScreen !== undefined && html.includes(EMPTY_CONTAINER);
  const sheets = chunks.filter((f) => f.endsWith('.css'));
  if (chunks.length) {
    const tags = chunks
      .map((f) =>
        !f.endsWith('.css')
          ? `<script defer src="${attr(f)}" nonce="${NONCE_PLACEHOLDER}"></script>`
          : painted
            ? '' // linked after the core stylesheet, below
            : `<link rel="preload" as="style" href="${attr(f)}">`,
      )
      .join('');
    html = html.replace(ENTRY_SCRIPT_RE, (entry) => tags + entry);
  }
  if (firstScreen && painted) {
    const scripts: string[] = [];
    html = html.replace(DEFER_SCRIPT_RE, (_m, src: string) => {
      scripts.push(decodeAttr(src));
      return '';
    });
    // The page's own sheets come after the core's, in the order the app would add them, so their rules win as there.
    const links = sheets.map((f) => `<link rel="stylesheet" href="${attr(f)}">`).join('');
    html = html
      // The guard comes before the stylesheets (a script after them would wait for them to parse the rest).
      .replace(PAGE_CONFIG_RE, (tag) => `${tag}<script nonce="${NONCE_PLACEHOLDER}">${firstScreenGuard()}</script>`)
      .replace(EMPTY_CONTAINER, () => `<div id="container">${firstScreen.body}</div>`)
      .replace(
        '</head>',
        () =>
          `${links}${firstScreen.hints}<style id="${STYLE_SHEET_ID}" nonce="${NONCE_PLACEHOLDER}">${firstScreen.css}</style>` +
          '</head>',
      )
      .replace('</body>', () => `<script nonce="${NONCE_PLACEHOLDER}">${lateScriptLoader(scripts)}</script></body>`);
  }
  html = html.split(NONCE_PLACEHOLDER).join(nonce);
  return html;
}
