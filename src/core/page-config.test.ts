import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_ENV, parsePageConfig, readPageConfig } from './page-config';

afterEach(() => {
  document.body.innerHTML = '';
});

describe('page configuration', () => {
  it('reads every field and the script nonce', () => {
    document.body.innerHTML = `<script id="page-config" type="application/json" nonce="n0nce">${JSON.stringify({
      appId: 'a1',
      orgId: 'o1',
      env: 'vpc',
      host: 'https://h',
      organizationId: 'o2',
      csrfToken: 'c1',
    })}</script>`;
    expect(readPageConfig()).toEqual({
      appId: 'a1',
      orgId: 'o1',
      env: 'vpc',
      host: 'https://h',
      organizationId: 'o2',
      csrfToken: 'c1',
      nonce: 'n0nce',
    });
  });

  it("defaults env to 'aliyun', organisation to orgId, and omits an absent CSRF token", () => {
    const c = parsePageConfig(JSON.stringify({ orgId: 'o1' }));
    expect(DEFAULT_ENV).toBe('aliyun');
    expect(c).toEqual({ appId: '', orgId: 'o1', env: 'aliyun', host: '', organizationId: 'o1' });
    expect('csrfToken' in c).toBe(false);
  });

  it('tolerates a missing tag, invalid JSON and non-object JSON', () => {
    const defaults = { appId: '', orgId: '', env: 'aliyun', host: '', organizationId: '' };
    expect(readPageConfig()).toEqual(defaults);
    expect(parsePageConfig('{oops')).toEqual(defaults);
    expect(parsePageConfig('[1,2]')).toEqual(defaults);
    expect(parsePageConfig('null')).toEqual(defaults);
    expect(parsePageConfig(JSON.stringify({ appId: { x: 1 }, host: 42 }))).toEqual({ ...defaults, host: '42' });
  });
});
