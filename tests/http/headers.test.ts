import { describe, expect, it } from 'vitest';
import { Client, orgSeed, useTestServer } from '../kit/server';
import { renderIndexHtml } from '../../server/html/render';

function expectSecurityHeaders(h: Headers) {
  expect(h.get('x-content-type-options')).toBe('nosniff');
  expect(h.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  const csp = h.get('content-security-policy') ?? '';
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  expect(h.get('x-request-id')).toBeTruthy();
}

describe('security headers and the served web app', () => {
  const s = useTestServer({ seed: orgSeed('Acme', ['alice']) });

  it('API answers carry the security headers and no-store', async () => {
    for (const p of ['/individual/proxy/me', '/users/ajax/users/alice/check', '/users/ajax/nothing']) {
      const a = await new Client(s.url).req('GET', p);
      expectSecurityHeaders(a.headers);
      expect(a.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('app routes get index.html with a per-response nonce, a nonce-only CSP and the page config', async () => {
    const c = new Client(s.url);
    const anon = await c.req('GET', '/users/login');
    expect(anon.status).toBe(200);
    expect(anon.headers.get('content-type')).toMatch(/text\/html/);
    expect(anon.headers.get('cache-control')).toBe('no-store');
    expectSecurityHeaders(anon.headers);
    const csp = anon.headers.get('content-security-policy')!;
    const nonce = /script-src 'self' 'nonce-([^']+)'/.exec(csp)![1];
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(anon.text).not.toContain('CSP_NONCE_PLACEHOLDER');
    expect(anon.text).toContain(`<script defer nonce="${nonce}" src=`);
    const tag = /<script id="page-config" type="application\/json" nonce="([^"]+)">([^<]*)<\/script>/.exec(anon.text)!;
    expect(tag[1]).toBe(nonce);
    const config = JSON.parse(tag[2]);
    expect(config).toMatchObject({ env: 'vpc', orgId: '', organizationId: '' });
    expect(config.csrfToken).toBeUndefined();

    await c.login('alice', 'Secret#123');
    const signed = await c.req('GET', '/users/settings/profile');
    const cfg = JSON.parse(/<script id="page-config"[^>]*>([^<]*)<\/script>/.exec(signed.text)![1]);
    expect(cfg.csrfToken).toBe(c.csrf);
    expect(cfg.orgId).toMatch(/^[0-9a-f]{24}$/);
    expect(cfg.organizationId).toBe(cfg.orgId);
    const again = await c.req('GET', '/users/settings/profile');
    expect(again.headers.get('content-security-policy')).not.toBe(signed.headers.get('content-security-policy'));
  });

  it('history fallback covers /users, /login and /sso routes; / and /users/settings lead to its first page', async () => {
    for (const p of ['/users/settings/ssh', '/users/switch/organization', '/login/errors', '/sso/login']) {
      const a = await new Client(s.url).req('GET', p);
      expect(a.status, p).toBe(200);
      expect(a.text).toContain('id="container"');
    }
    // Answered by the service, so that the page comes painted, not by the web app once its scripts ran.
    for (const [p, to] of [
      ['/', '/users/settings/profile'],
      ['/users/settings', '/users/settings/profile'],
      ['/users/settings/', '/users/settings/profile'],
      ['/users/settings?from=mail', '/users/settings/profile?from=mail'],
    ]) {
      const a = await new Client(s.url).req('GET', p);
      expect(a.status, p).toBe(302);
      expect(a.headers.get('location'), p).toBe(to);
    }
  });

  it('hashed assets are cached for a year, other files revalidate, the raw template is not served', async () => {
    const js = await new Client(s.url).req('GET', '/static/js/index.1a2b3c4d.js');
    expect(js.status).toBe(200);
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expectSecurityHeaders(js.headers);
    const robots = await new Client(s.url).req('GET', '/robots.txt');
    expect(robots.headers.get('cache-control')).toBe('no-cache');
    expect((await new Client(s.url).req('GET', '/index.html')).status).toBe(404);
    expect((await new Client(s.url).req('GET', '/static/js/missing.js')).json.code).toBe('NotFound');
  });

  it('serves the OpenAPI document and its browser at /api/docs', async () => {
    const doc = await new Client(s.url).req('GET', '/api/docs/json');
    expect(doc.status).toBe(200);
    expect(Object.keys(doc.json.paths)).toEqual(
      expect.arrayContaining([
        '/users/ajax/login',
        '/individual/proxy/me',
        '/oapi/v1/platform/user',
        '/uiless/api/apps:search',
      ]),
    );
    const ui = await new Client(s.url).req('GET', '/api/docs');
    expect(ui.status).toBe(200);
    expectSecurityHeaders(ui.headers);
  });
});

describe('page config rendering', () => {
  it('cannot be broken out of by a value containing </script>', () => {
    const html = renderIndexHtml(
      '<script id="page-config" type="application/json">{}</script><script nonce="CSP_NONCE_PLACEHOLDER"></script>',
      { appId: 'a', orgId: '</script><script>alert(1)</script>', env: 'vpc', host: 'h', organizationId: '$&' },
      'NONCE',
    );
    expect(html).not.toContain('</script><script>alert');
    expect(html).toContain('\\u003c/script\\u003e');
    expect(html.match(/nonce="NONCE"/g)).toHaveLength(2);
    const json = /<script id="page-config"[^>]*>([^<]*)<\/script>/.exec(html)![1];
    expect(JSON.parse(json).orgId).toBe('</script><script>alert(1)</script>');
    expect(JSON.parse(json).organizationId).toBe('$&');
  });
});

describe('behind an https PUBLIC_URL: HSTS and a __Host- session cookie', () => {
  const s = useTestServer({ env: { PUBLIC_URL: 'https://devops.example.com' }, seed: orgSeed('Acme', ['alice']) });

  it('every answer, errors included, carries Strict-Transport-Security', async () => {
    for (const p of ['/users/login', '/individual/proxy/me', '/users/ajax/nothing', '/users/ajax/users/%zz/check']) {
      const a = await new Client(s.url).req('GET', p);
      expect(a.headers.get('strict-transport-security'), p).toBe('max-age=31536000; includeSubDomains');
      expectSecurityHeaders(a.headers);
    }
  });

  it('the session cookie is __Host-account_session with Secure, Path=/ and no Domain, and it works', async () => {
    const c = new Client(s.url);
    const a = await c.login('alice', 'Secret#123');
    expect(a.status).toBe(200);
    const cookie = a.headers.getSetCookie().find((x) => x.startsWith('__Host-account_session='))!;
    expect(cookie).toBeTruthy();
    expect(cookie).toMatch(/; Secure/i);
    expect(cookie).toMatch(/; Path=\/(;|$)/);
    expect(cookie).not.toMatch(/domain=/i);
    expect(a.headers.getSetCookie().some((x) => x.startsWith('account_session='))).toBe(false);
    expect((await c.req('GET', '/individual/proxy/me')).status).toBe(200);
    // The plain name is not read on https: a cookie planted by a plain-http page is no session here.
    const planted = new Client(s.url);
    planted.cookies.set('account_session', c.cookies.get('__Host-account_session')!);
    expect((await planted.req('GET', '/individual/proxy/me')).status).toBe(401);
    const out = await c.req('POST', '/users/logout', { body: {} });
    expect(out.headers.getSetCookie().find((x) => x.startsWith('__Host-account_session='))).toMatch(/; Secure/i);
    expect((await c.req('GET', '/individual/proxy/me')).status).toBe(401);
  });
});

describe('on http: no HSTS, the plain cookie name', () => {
  const s = useTestServer({ seed: orgSeed('Acme', ['alice']) });

  it('never sends Strict-Transport-Security and names the cookie account_session', async () => {
    const c = new Client(s.url);
    const a = await c.login('alice', 'Secret#123');
    expect(a.headers.get('strict-transport-security')).toBeNull();
    expect(a.headers.getSetCookie().some((x) => x.startsWith('account_session='))).toBe(true);
    expect(
      (await new Client(s.url).req('GET', '/users/ajax/nothing')).headers.get('strict-transport-security'),
    ).toBeNull();
  });
});
