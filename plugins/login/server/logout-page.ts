import crypto from 'node:crypto';
import type { ColorScheme } from '../../../schemas/color-scheme';
import type { ServerLocale } from '../../../server/i18n/index';
import { localeTag } from '../../../schemas/locale';

/** The texts of the sign-out confirmation, in both languages the service answers in. */
const TEXTS: Record<ServerLocale, { title: string; body: (name: string) => string; confirm: string; cancel: string }> =
  {
    zh_CN: {
      title: '退出登录？',
      body: (name) => `将退出 ${name} 在此浏览器中的登录。`,
      confirm: '退出登录',
      cancel: '取消',
    },
    en_US: {
      title: 'Sign out?',
      body: (name) => `${name} will be signed out in this browser.`,
      confirm: 'Sign out',
      cancel: 'Cancel',
    },
  };

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escape = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** What the confirmation page shows and carries. */
export interface LogoutPageInput {
  locale: ServerLocale;
  /** Who is signed in (their display name). */
  name: string;
  /** The session's CSRF token: the form's POST proves it comes from this page, not another site. */
  csrfToken: string;
  /** The `next` as asked (the POST validates it again), or undefined. */
  next: string | undefined;
  /** Where Cancel goes: the validated next, or the settings. */
  cancel: string;
  /** The edition's brand colour (`#RRGGBB`). */
  color: string;
  /** The account's shade: the page is light, dark, or follows the system like the app's pages. */
  colorScheme: ColorScheme;
  /** Origins the answer to the form may redirect to besides this one (an absolute `next`'s). */
  formOrigins: string[];
}

/**
 * The page a bare GET of the logout address shows to a signed-in browser: a button that POSTs the session's CSRF
 * token (and the `next`) back to the logout address, and a way back. No script; its own CSP (its one style by nonce,
 * forms only to here and the `next`'s origin, no framing).
 */
export function logoutPage(input: LogoutPageInput): { html: string; csp: string } {
  const t = TEXTS[input.locale];
  const nonce = crypto.randomBytes(16).toString('base64');
  const color = /^#[0-9a-fA-F]{6}$/.test(input.color) ? input.color : '#006AD4';
  // Each colour as a light-dark() pair, picked by the account's shade (`color-scheme`), like the app's pages.
  const scheme = input.colorScheme === 'system' ? 'light dark' : input.colorScheme;
  const style =
    `:root{color-scheme:${scheme}}` +
    'body{margin:0;min-height:100vh;display:grid;place-items:center;background:light-dark(#f5f6f7,#000);' +
    'color:light-dark(#1f2329,rgba(255,255,255,.88));' +
    'font:14px/1.6 system-ui,-apple-system,"PingFang SC","Microsoft YaHei",sans-serif}' +
    'main{background:light-dark(#fff,#141414);padding:32px;border-radius:8px;box-shadow:0 1px 4px rgba(0,0,0,.08);' +
    'max-width:360px;margin:16px}' +
    'h1{font-size:18px;margin:0 0 8px}p{margin:0 0 24px;color:light-dark(#646a73,rgba(255,255,255,.68))}' +
    `button{background:${color};color:#fff;border:0;border-radius:4px;padding:6px 20px;font:inherit;cursor:pointer}` +
    `a{margin-left:16px;color:light-dark(${color},#69b1ff)}`;
  const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${escape(value)}">`;
  const html =
    `<!DOCTYPE html><html lang="${localeTag(input.locale, 'html')}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width,initial-scale=1"><title>${escape(t.title)}</title>` +
    `<style nonce="${nonce}">${style}</style></head><body><main><h1>${escape(t.title)}</h1>` +
    `<p>${escape(t.body(input.name))}</p><form method="post" action="/users/logout">` +
    hidden('csrf_token', input.csrfToken) +
    (input.next !== undefined ? hidden('next', input.next) : '') +
    `<button type="submit" autofocus>${escape(t.confirm)}</button><a href="${escape(input.cancel)}">` +
    `${escape(t.cancel)}</a></form></main></body></html>`;
  const csp = [
    "default-src 'none'",
    `style-src 'nonce-${nonce}'`,
    `form-action 'self'${input.formOrigins.map((o) => ` ${o}`).join('')}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
  return { html, csp };
}
