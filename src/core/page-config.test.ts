import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_ENV, parsePageConfig, readPageConfig } from './page-config';

afterEach(() => {
  document.body.innerHTML = '';
});

describe('page configuration', () => {
  it('reads every field', () => {
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

describe('page bootstrap', () => {
  it('keeps a well-formed bootstrap and drops what is malformed, never the page', () => {
    const me = { id: 'u1', username: 'alice' };
    const good = parsePageConfig(
      JSON.stringify({
        bootstrap: {
          locale: 'en_US',
          messages: { a: 'A' },
          me,
          organization: { id: 'o1', name: 'Acme', logo: null },
          apps: [{ identity: 'codeup', id: 'x', name: 'Codeup' }, 'junk'],
          organizationError: null,
        },
      }),
    );
    expect(good.bootstrap).toMatchObject({ locale: 'en_US', messages: { a: 'A' }, me, apps: [{ identity: 'codeup' }] });
    expect(parsePageConfig(JSON.stringify({ bootstrap: { locale: 'fr_FR', me } })).bootstrap).toBeUndefined();
    const odd = parsePageConfig(JSON.stringify({ bootstrap: { locale: 'zh_CN', messages: { a: 1 }, me: { id: 1 } } }));
    expect(odd.bootstrap).toEqual({ locale: 'zh_CN' });
  });

  it("keeps the second factor's deadline when it is a number, and the name of an organisation refusing for it", () => {
    const me = { id: 'u1', username: 'alice' };
    const boot = (organization: unknown, more: Record<string, unknown> = {}) =>
      parsePageConfig(JSON.stringify({ bootstrap: { locale: 'en_US', me, organization, apps: [], ...more } }))
        .bootstrap;
    const org = { id: 'o1', name: 'Acme', logo: null };
    expect(boot({ ...org, second_factor_deadline: 1_800_000_000_000 })?.organization).toEqual({
      ...org,
      second_factor_deadline: 1_800_000_000_000,
    });
    expect(boot({ ...org, second_factor_deadline: 'soon' })?.organization).toEqual(org);
    const refused = boot(null, {
      organizationError: 'OrganizationSecondFactorRequired',
      refusedOrganizationName: 'Acme',
    });
    expect(refused).toMatchObject({ organization: null, refusedOrganizationName: 'Acme' });
    expect(boot(null, { refusedOrganizationName: 7 })).not.toHaveProperty('refusedOrganizationName');
  });

  it("keeps the plugins' data of a page without a session (the sign-in page's waiting account)", () => {
    const plugins = { login: { pendingBind: null } };
    const anonymous = parsePageConfig(JSON.stringify({ bootstrap: { locale: 'zh_CN', plugins } }));
    expect(anonymous.bootstrap).toEqual({ locale: 'zh_CN', plugins });
    expect(parsePageConfig(JSON.stringify({ bootstrap: { locale: 'zh_CN', plugins: [1] } })).bootstrap).toEqual({
      locale: 'zh_CN',
    });
  });
});

describe('sign-in methods of the login pages', () => {
  it('keeps the known directory kinds and providers, each once, and drops the rest', () => {
    const c = parsePageConfig(
      JSON.stringify({
        signIn: { directories: ['ad', 'saml', 'ldap', 'ad', 3], oauth: ['wecom', 'github', null, 'dingtalk', 'lark'] },
      }),
    );
    expect(c.signIn).toEqual({ directories: ['ad', 'ldap'], oauth: ['wecom', 'dingtalk', 'lark'] });
  });

  it('reads a partial or malformed signIn as no extra methods, and an absent one as absent', () => {
    expect(parsePageConfig(JSON.stringify({ signIn: { directories: ['ldap'] } })).signIn).toEqual({
      directories: ['ldap'],
      oauth: [],
    });
    expect(parsePageConfig(JSON.stringify({ signIn: { directories: 'ldap', oauth: {} } })).signIn).toEqual({
      directories: [],
      oauth: [],
    });
    expect('signIn' in parsePageConfig(JSON.stringify({ signIn: ['ldap'] }))).toBe(false);
    expect('signIn' in parsePageConfig(JSON.stringify({ orgId: 'o1' }))).toBe(false);
  });
});
