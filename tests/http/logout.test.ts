import { describe, expect, it } from 'vitest';
import { Client, orgSeed, useTestServer, type Answer } from '../kit/server';

// Logout needs the session's CSRF token: a GET of the logout address (a link or an image on any site: SameSite=Lax
// sends the cookie on top-level GETs) only shows a "sign out?" page, whose button POSTs the token.
const LOGOUT = '/users/logout';

/** The hidden fields of the confirmation page's form. */
function formFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    fields[m[1]] = m[2]
      .replace(/&amp;/g, '&')
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>');
  return fields;
}

/** Posts the page's form as a browser does: urlencoded, no X-Requested-With, no X-CSRF-Token. */
const submitForm = (c: Client, fields: Record<string, string>) =>
  c.req('POST', LOGOUT, {
    raw: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    xhr: false,
    csrf: false,
  });

const signedIn = async (c: Client) => (await c.req('GET', '/individual/proxy/me')).status === 200;

describe('logout needs the session’s CSRF token', () => {
  const s = useTestServer({ seed: orgSeed('Acme', ['alice', 'bob'], { signIn: true }) });
  const fresh = async () => (await s.signIn('alice')).alice;

  it('a bare GET shows a "sign out?" page and ends nothing', async () => {
    const c = await fresh();
    const page: Answer = await c.req('GET', `${LOGOUT}?next=%2Fusers%2Fsettings%2Fprofile`, { xhr: false });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.getSetCookie()).toEqual([]);
    expect(await signedIn(c)).toBe(true);
    expect(page.text).toContain('<form method="post" action="/users/logout">');
    expect(page.text).toContain('退出登录？');
    expect(formFields(page.text)).toEqual({ csrf_token: c.csrf, next: '/users/settings/profile' });
    // Its own CSP: no script, its style by nonce, forms only to here, never framed; never cached.
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).toMatch(/form-action 'self'(;|$)/);
    expect(csp).toMatch(/frame-ancestors 'none'/);
    expect(page.text).not.toMatch(/<script/i);
    expect(page.headers.get('cache-control')).toBe('no-store');
    const en = await c.req('GET', LOGOUT, { xhr: false, headers: { 'accept-language': 'en-US' } });
    expect(en.text).toContain('Sign out?');
    expect(en.text).toContain('<html lang="en">');
  });

  it("the page is in the account's shade: the system's by default, dark once the account chose dark", async () => {
    const c = await fresh();
    expect((await c.req('GET', LOGOUT, { xhr: false })).text).toContain(':root{color-scheme:light dark}');
    expect((await c.req('PUT', '/users/ajax/v1/my/appearance', { body: { colorScheme: 'dark' } })).status).toBe(200);
    expect((await c.req('GET', LOGOUT, { xhr: false })).text).toContain(':root{color-scheme:dark}');
    await c.req('PUT', '/users/ajax/v1/my/appearance', { body: { colorScheme: 'system' } });
  });

  it('the page’s button ends the session and goes to the next the seed’s address named', async () => {
    const c = await fresh();
    const page = await c.req('GET', `${LOGOUT}?next=%2Fusers%2Fsettings%2Fprofile`, { xhr: false });
    const out = await submitForm(c, formFields(page.text));
    expect(out.status, out.text).toBe(303);
    expect(out.headers.get('location')).toBe('/users/settings/profile');
    expect(await signedIn(c)).toBe(false);
    // The relogin path when there is no (valid) next.
    const d = await fresh();
    const plain = await d.req('GET', `${LOGOUT}?next=${encodeURIComponent('https://evil.example/')}`, { xhr: false });
    const other = await submitForm(d, { ...formFields(plain.text), csrf_token: d.csrf! });
    expect([other.status, other.headers.get('location')]).toEqual([303, '/users/login']);
  });

  it('refuses a POST without the token or with another session’s, and a form from another site', async () => {
    const c = await fresh();
    const bob = s.clients.bob;
    const cases: Array<Record<string, string>> = [
      {},
      { csrf_token: '' },
      { csrf_token: 'forged' },
      { csrf_token: bob.csrf! },
    ];
    for (const fields of cases) {
      const a = await submitForm(c, fields);
      expect([JSON.stringify(fields), a.status, a.json?.code]).toEqual([JSON.stringify(fields), 403, 'CsrfRejected']);
    }
    // A cross-site form: the browser sends a Referer/Origin of its own and no token.
    const forged = await c.req('POST', `${LOGOUT}?next=%2F`, {
      raw: 'next=%2F',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
      xhr: false,
      csrf: false,
    });
    expect(forged.status).toBe(403);
    expect(await signedIn(c)).toBe(true);
    expect(await signedIn(bob)).toBe(true);
  });

  it('a call may send the token as X-CSRF-Token; without a session there is nothing to end', async () => {
    const c = await fresh();
    const out = await c.req('POST', `${LOGOUT}?next=%2Fusers%2Fsettings`, { body: {} });
    expect([out.status, out.headers.get('location')]).toEqual([303, '/users/settings']);
    expect(await signedIn(c)).toBe(false);
    // Signed out already (or never in): the GET and the POST only redirect.
    const nobody = new Client(s.url);
    const get = await nobody.req('GET', `${LOGOUT}?next=%2Fusers%2Fsettings`, { xhr: false });
    expect([get.status, get.headers.get('location')]).toEqual([302, '/users/settings']);
    expect((await submitForm(nobody, { next: '/users/settings' })).status).toBe(303);
  });
});
