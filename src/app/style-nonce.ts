// The one place antd's helpers add <style> elements at run time: @rc-component/util's dynamicCSS. Some callers pass
// no nonce (a modal's or drawer's body scroll lock, a table measuring its scrollbar on mount), so the page CSP
// (`style-src 'self' 'nonce-…'`) blocked those styles and the console reported it. The build points every import of
// that module at this one (rsbuild.config.ts), which hands the page's nonce to each call that brings none.
import {
  clearContainerCache,
  injectCSS as injectOriginal,
  removeCSS,
  updateCSS as updateOriginal,
} from '@rc-component/util/es/Dom/dynamicCSS.js?original';

type Options = NonNullable<Parameters<typeof updateOriginal>[2]>;

let pageNonce: string | undefined;

/** Sets the nonce of this page (from its configuration tag) for the styles antd's helpers add later. */
export function setDynamicStyleNonce(nonce: string | undefined): void {
  pageNonce = nonce || undefined;
}

/** The caller's options, with the page nonce unless the caller brought its own. */
export function withPageNonce(option: Options = {}): Options {
  if (option.csp?.nonce || !pageNonce) return option;
  return { ...option, csp: { ...option.csp, nonce: pageNonce } };
}

/** rc-util's `injectCSS`, the page nonce added. */
export function injectCSS(css: string, option?: Options): HTMLStyleElement {
  return injectOriginal(css, withPageNonce(option));
}

/** rc-util's `updateCSS`, the page nonce added. */
export function updateCSS(css: string, key: string, option?: Options): HTMLElement {
  return updateOriginal(css, key, withPageNonce(option));
}

export { clearContainerCache, removeCSS };
