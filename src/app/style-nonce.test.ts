import { afterEach, describe, expect, it } from 'vitest';
import { cssVarSelector, varBlockIndexRule } from '../../schemas/antd-var-blocks';
import {
  injectCSS,
  removeCSS,
  resetStaticSheetCache,
  setDynamicStyleNonce,
  updateCSS,
  withPageNonce,
} from './style-nonce';

describe("the page nonce on antd helpers' styles", () => {
  afterEach(() => {
    setDynamicStyleNonce(undefined);
    document.head.querySelectorAll('style').forEach((s) => s.remove());
  });

  it('adds the page nonce to a style added without one (the scroll lock)', () => {
    setDynamicStyleNonce('page-nonce');
    const style = updateCSS('html body { overflow-y: hidden; }', 'rc-util-locker-1') as HTMLStyleElement;
    expect(style.nonce).toBe('page-nonce');
    expect(document.head.contains(style)).toBe(true);
    removeCSS('rc-util-locker-1');
    expect(document.head.contains(style)).toBe(false);
    expect(injectCSS('a { color: red; }').nonce).toBe('page-nonce');
  });

  it("keeps a caller's own nonce and other options", () => {
    setDynamicStyleNonce('page-nonce');
    expect(withPageNonce({ csp: { nonce: 'own' }, prepend: true })).toEqual({ csp: { nonce: 'own' }, prepend: true });
    expect(withPageNonce({ prepend: 'queue', priority: -999 })).toEqual({
      prepend: 'queue',
      priority: -999,
      csp: { nonce: 'page-nonce' },
    });
  });

  it('adds nothing when the page has no nonce (no CSP to satisfy)', () => {
    expect(withPageNonce({ prepend: true })).toEqual({ prepend: true });
    expect(injectCSS('a { color: red; }').nonce || undefined).toBeUndefined();
  });
});

describe("antd's CSS variables the stylesheets already hold", () => {
  afterEach(() => {
    resetStaticSheetCache();
    document.head.querySelectorAll('style').forEach((s) => s.remove());
  });

  /** A stylesheet of the page (as the edition's built sheet is). */
  const pageSheet = (css: string) => {
    const el = document.createElement('style');
    el.textContent = css;
    document.head.appendChild(el);
  };
  const antdStyles = () => Array.from(document.head.querySelectorAll('style[data-rc-order]'));

  it('reads the selector of one block of variables, and of nothing else', () => {
    expect(cssVarSelector('.css-var-app.ant-btn{--ant-button-x:1px;}')).toBe('.css-var-app.ant-btn');
    expect(cssVarSelector('.css-var-app{--ant-blue:#1677FF;}')).toBe('.css-var-app');
    expect(cssVarSelector('.ant-btn{color:red}')).toBeUndefined();
    expect(cssVarSelector('.css-var-app{--a:1}.css-var-app .x{--b:2}')).toBeUndefined();
  });

  it('does not add a block the page already has, and adds one it lacks', () => {
    pageSheet('.css-var-app{--ant-blue:#1677FF}.css-var-app.ant-btn{--ant-button-x:1px}');
    const opts = { mark: 'data-css-hash', prepend: 'queue' as const, priority: -999 };
    const skipped = updateCSS('.css-var-app.ant-btn{--ant-button-x:1px;}', 'k1', opts);
    expect(document.head.contains(skipped)).toBe(false);
    // The caller marks what it got back.
    skipped.setAttribute('data-token-hash', 'css-var-app');
    expect(antdStyles()).toHaveLength(0);
    const added = updateCSS('.css-var-app.ant-modal-css-var{--ant-modal-x:2px;}', 'k2', opts);
    expect(document.head.contains(added)).toBe(true);
    expect(antdStyles()).toHaveLength(1);
  });

  it('reads a sheet that arrived later (a section’s own), and never counts the styles antd added itself', () => {
    pageSheet('.css-var-app{--ant-blue:#1677FF}');
    updateCSS('.css-var-app.ant-table-css-var{--ant-table-x:1px;}', 'k3');
    expect(antdStyles()).toHaveLength(1);
    // A second theme's block under the same selector is still added: what antd added does not count as the page's.
    updateCSS('.css-var-app.ant-table-css-var{--ant-table-x:3px;}', 'k4');
    expect(antdStyles()).toHaveLength(2);
    pageSheet('.css-var-app.ant-tag{--ant-tag-x:1px}');
    const tag = updateCSS('.css-var-app.ant-tag{--ant-tag-x:1px;}', 'k5');
    expect(document.head.contains(tag)).toBe(false);
  });

  it("learns a built sheet's blocks from its index, without reading its other rules", () => {
    // What the build writes (scripts/lib/antd-styles.ts): the index first, after a rule or two of other sheets.
    pageSheet(
      `html{margin:0}${varBlockIndexRule(['.css-var-app', '.css-var-app.ant-btn'])}` +
        '.css-var-app{--ant-blue:#1677FF}.css-var-app.ant-btn{--ant-button-x:1px}.css-var-app.ant-tag{--ant-tag-x:1px}',
    );
    const opts = { mark: 'data-css-hash', prepend: 'queue' as const, priority: -999 };
    expect(document.head.contains(updateCSS('.css-var-app.ant-btn{--ant-button-x:1px;}', 'k6', opts))).toBe(false);
    // A block the index does not name is added, even where a later rule of the sheet has it: the index is the
    // sheet's word (at worst a block is added twice, never left out).
    expect(document.head.contains(updateCSS('.css-var-app.ant-tag{--ant-tag-x:1px;}', 'k7', opts))).toBe(true);
  });
});
