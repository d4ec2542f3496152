import type { PageConfig } from '../../schemas/page-config';
import { localeTag } from '../../schemas/locale';
import { DEFAULT_COLOR_SCHEME } from '../../schemas/color-scheme';
import { DARK_SHEET_ID, darkSheetMedia, FIRST_SCREEN_ATTR } from '../../schemas/first-screen';
import type { FirstScreen } from '../../schemas/server-renderer';

/** The placeholder rsbuild writes as the nonce of every script tag (`security.nonce`). */
export const NONCE_PLACEHOLDER = 'CSP_NONCE_PLACEHOLDER';

/** JSON that cannot close the surrounding script element or start an HTML comment. */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

const PAGE_CONFIG_RE = /<script\b([^>]*\bid=["']page-config["'][^>]*)>[\s\S]*?<\/script>/i;

/** The entry's script tag (the template's last with a source: rsbuild injects it last); the lazy files go before it. */
const ENTRY_SCRIPT_RE = /<script\b[^>]*\bsrc="[^"]*"[^>]*><\/script>(?![\s\S]*<script\b[^>]*\bsrc=)/;

const EMPTY_CONTAINER = '<div id="container"></div>';

const attr = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * Fills the built index.html: the page configuration into its script tag, the page's lazy files (`chunks`, from
 * page-chunks.json) before the entry script, a first screen (first-screen.ts) into the container, and one nonce
 * everywhere the placeholder is. Lazy scripts are preloaded at low priority (fetched with the document after what the
 * paint needs, run when the app imports them); stylesheets are preloaded, or linked when the page comes painted.
 */
export function renderIndexHtml(
  template: string,
  config: PageConfig,
  nonce: string,
  chunks: string[] = [],
  firstScreen?: FirstScreen,
): string {
  let html = template.replace(PAGE_CONFIG_RE, (_m, attrs: string) => {
    const withNonce = /\bnonce=/.test(attrs) ? attrs : `${attrs} nonce="${NONCE_PLACEHOLDER}"`;
    // A function replacement keeps `$` sequences in the JSON literal.
    return `<script${withNonce}>${scriptSafeJson(config)}</script>`;
  });
  // The page's language is the one the app will show (the browser picks fonts by it), not the edition's default.
  const locale = config.bootstrap?.locale;
  if (locale) html = html.replace(/<html lang="[^"]*"/, `<html lang="${localeTag(locale, 'html')}"`);
  // The dark sheet applies by the account's choice from the first paint on (a signed-out page follows the system).
  const media = darkSheetMedia(config.bootstrap?.me?.colorScheme ?? DEFAULT_COLOR_SCHEME);
  const darkLink = new RegExp(`(<link\\b[^>]*\\bid="${DARK_SHEET_ID}"[^>]*\\bmedia=")[^"]*"`);
  html = html.replace(darkLink, (_m, start: string) => `${start}${media}"`);
  const tags = chunks
    .map((f) =>
      f.endsWith('.css')
        ? `<link rel="${firstScreen === undefined ? 'preload" as="style' : 'stylesheet'}" href="${attr(f)}">`
        : `<link rel="preload" as="script" href="${attr(f)}" nonce="${NONCE_PLACEHOLDER}" fetchpriority="low">`,
    )
    .join('');
  html = html.replace(ENTRY_SCRIPT_RE, (entry) => tags + entry);
  if (firstScreen !== undefined) {
    html = html.replace(EMPTY_CONTAINER, () => `<div id="container" ${FIRST_SCREEN_ATTR}>${firstScreen.html}</div>`);
    // Its antd styles first in the head: the page paints with them, before the edition's whole sheet (linked at the
    // end of the body) arrives.
    html = html.replace('<head>', () => `<head>${firstScreen.styles}`);
  }
  return html.split(NONCE_PLACEHOLDER).join(nonce);
}
