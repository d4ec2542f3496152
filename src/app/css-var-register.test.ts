import { renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { varBlockIndexRule } from '../../schemas/antd-var-blocks';
import useCSSVarRegister, { resetHeldVarBlocks, varBlockSelector } from './css-var-register';
import { resetStaticSheetCache } from './style-nonce';

describe("antd's CSS-variable registration", () => {
  afterEach(() => {
    resetHeldVarBlocks();
    resetStaticSheetCache();
    document.head.querySelectorAll('style').forEach((s) => s.remove());
  });

  it('names the block antd would write: the key, then each scope', () => {
    expect(varBlockSelector({ key: 'css-var-app', scope: 'ant-btn' })).toBe('.css-var-app.ant-btn');
    expect(varBlockSelector({ key: 'css-var-app', scope: ['ant-list', 'ant-list-css-var'] })).toBe(
      '.css-var-app.ant-list, .css-var-app.ant-list-css-var',
    );
    expect(varBlockSelector({ key: 'css-var-app' })).toBe('.css-var-app');
    expect(varBlockSelector({ key: 'css-var-app', scope: 'ant-btn', hashId: 'h1' })).toBeUndefined();
  });

  it('derives nothing for a block the page’s sheets hold, and derives (and adds) one they lack', () => {
    const sheet = document.createElement('style');
    sheet.textContent = `${varBlockIndexRule(['.css-var-app.ant-btn'])}.css-var-app.ant-btn{--ant-btn-x:1px}`;
    document.head.appendChild(sheet);
    const token = { _tokenKey: 'test-token' };
    const held = vi.fn(() => ({ paddingX: 4 }));
    renderHook(() =>
      useCSSVarRegister({ path: ['Button'], key: 'css-var-app', prefix: 'ant', scope: 'ant-btn', token }, held),
    );
    expect(held).not.toHaveBeenCalled();
    const lacking = vi.fn(() => ({ paddingX: 4 }));
    renderHook(() =>
      useCSSVarRegister({ path: ['Tag'], key: 'css-var-app', prefix: 'ant', scope: 'ant-tag', token }, lacking),
    );
    expect(lacking).toHaveBeenCalledTimes(1);
    expect(document.head.querySelector('style[data-rc-order]')?.textContent).toContain(
      '.css-var-app.ant-tag{--ant-padding-x:4px;}',
    );
  });
});
