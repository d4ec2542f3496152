import crypto from 'node:crypto';
import type { PageConfig } from '../../schemas/page-config';

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

/** Fills the built index.html: page configuration into its script tag, and one nonce everywhere the placeholder is. */
export function renderIndexHtml(template: string, config: PageConfig, nonce: string): string {
  let html = template.replace(PAGE_CONFIG_RE, (_m, attrs: string) => {
    const withNonce = /\bnonce=/.test(attrs) ? attrs : `${attrs} nonce="${NONCE_PLACEHOLDER}"`;
    // A function replacement keeps `$` sequences in the JSON literal.
    return `<script${withNonce}>${scriptSafeJson(config)}</script>`;
  });
  html = html.split(NONCE_PLACEHOLDER).join(nonce);
  return html;
}
