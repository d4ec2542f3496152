// The one place antd's helpers add <style> elements at run time: @rc-component/util's dynamicCSS. The build points
// every import of that module at this one (rsbuild.config.ts), which
// - hands the page's nonce to each call that brings none (a modal's or drawer's body scroll lock, a table measuring
//   its scrollbar on mount), which the page CSP (`style-src 'self' 'nonce-…'`) blocked and the console reported;
// - leaves out the CSS variables antd registers for its theme and for each kind of component it mounts (even with
//   `zeroRuntime`) when the edition's stylesheets already hold that very block (scripts/lib/antd-styles.ts writes
//   them from the same theme): on a page's first render that was some twenty-five <style> elements, ~40 KB of CSS
//   parsed again and a recalculation of every element's style, inside the hydration's commit.
import {
  clearContainerCache,
  injectCSS as injectOriginal,
  removeCSS,
  updateCSS as updateOriginal,
} from '@rc-component/util/es/Dom/dynamicCSS.js?original';
import {
  cssVarSelector,
  parseVarBlockIndex,
  VAR_BLOCK_INDEX_PROPERTY,
  VAR_BLOCK_INDEX_SELECTOR,
} from '../../schemas/antd-var-blocks';

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

/** The selectors of the CSS-variable blocks each stylesheet holds: a sheet is read once. */
let varBlocksBySheet = new WeakMap<CSSStyleSheet, Set<string>>();

/** How far into a sheet its index of variable blocks may be (index.css: after the few rules of global.css). */
const INDEX_WITHIN_RULES = 64;

function varBlocksOf(sheet: CSSStyleSheet): Set<string> {
  let selectors = varBlocksBySheet.get(sheet);
  if (selectors) return selectors;
  let rules: CSSRuleList | undefined;
  try {
    rules = sheet.cssRules;
  } catch {
    rules = undefined; // not readable (another origin)
  }
  selectors = rules ? (indexedVarBlocks(rules) ?? scannedVarBlocks(rules)) : new Set<string>();
  varBlocksBySheet.set(sheet, selectors);
  return selectors;
}

/** The blocks the build's index at the head of an antd sheet names (schemas/antd-var-blocks.ts), if it has one. */
function indexedVarBlocks(rules: CSSRuleList): Set<string> | undefined {
  for (let i = 0; i < rules.length && i < INDEX_WITHIN_RULES; i++) {
    const rule = rules[i];
    if (rule instanceof CSSStyleRule && rule.selectorText === VAR_BLOCK_INDEX_SELECTOR)
      return new Set(parseVarBlockIndex(rule.style.getPropertyValue(VAR_BLOCK_INDEX_PROPERTY)));
  }
  return undefined;
}

/** The blocks of a sheet without an index, read rule by rule. */
function scannedVarBlocks(rules: CSSRuleList): Set<string> {
  const selectors = new Set<string>();
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i];
    if (rule instanceof CSSStyleRule && rule.selectorText.startsWith('.css-var-')) selectors.add(rule.selectorText);
  }
  return selectors;
}

/** Whether one of the page's stylesheets (not a style antd added) holds a block of variables for `selector`. */
export function inStaticSheets(doc: Document, selector: string): boolean {
  // Not the styles added through this module (rc-util marks each with its order), which a theme may replace. A sheet
  // still loading has none yet; a section's lazy sheet is read when it has come.
  const owners = doc.querySelectorAll<HTMLLinkElement | HTMLStyleElement>(
    'link[rel~="stylesheet"], style:not([data-rc-order])',
  );
  for (const owner of Array.from(owners)) {
    if (owner.sheet && varBlocksOf(owner.sheet).has(selector)) return true;
  }
  return false;
}

/**
 * rc-util's `updateCSS`, the page nonce added; a block of CSS variables the page's stylesheets already hold is not
 * added again (the caller gets a detached element to mark, as it expects one).
 */
export function updateCSS(css: string, key: string, option?: Options): HTMLElement {
  const selector = cssVarSelector(css);
  if (selector && typeof document !== 'undefined' && inStaticSheets(document, selector)) {
    return document.createElement('style');
  }
  return updateOriginal(css, key, withPageNonce(option));
}

/** Forgets what the page's stylesheets hold (tests). */
export function resetStaticSheetCache(): void {
  varBlocksBySheet = new WeakMap();
}

export { clearContainerCache, removeCSS };
