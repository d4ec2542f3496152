import { afterEach, describe, expect, it } from 'vitest';
import { injectCSS, removeCSS, setDynamicStyleNonce, updateCSS, withPageNonce } from './style-nonce';

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
