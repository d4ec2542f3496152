import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCALE_COOKIE } from '../../schemas/locale';
import type { PageChunks } from '../../schemas/page-chunks';
import { type Answer, Client, orgSeed, useTestServer } from '../kit/server';

// A built edition as the service finds it: the stand-in bundle plus the page-chunks.json naming the plugins' pages.
const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'not-found-dist-'));
fs.cpSync(path.join(import.meta.dirname, '../fixtures/server/web-dist'), dist, { recursive: true });
const NOT_FOUND_FILE = '/static/js/async/shell-not-found.0000dddd.js';
const chunks: PageChunks = {
  common: ['/static/js/async/antd-root.0000aaaa.js'],
  locales: { zh_CN: ['/static/js/async/locale-zh.0000bbbb.js'], en_US: [] },
  settings: ['/static/js/async/shell-settings.0000eeee.js'],
  routes: [
    { path: '/users/login', files: ['/static/js/async/plugin-login.0000ffff.js'] },
    { path: '/login/errors', files: [] },
    { path: '/users/switch/organization', files: [] },
    { path: '/users/switch/:organizationId/app-entry', files: [] },
    { path: '/users/notifications', files: [] },
  ],
  sections: { profile: [], ssh: [] },
  notFound: [NOT_FOUND_FILE],
};
fs.writeFileSync(path.join(dist, 'vpc', 'page-chunks.json'), JSON.stringify(chunks));

/** What Chromium sends when a person opens a page. */
const BROWSER = {
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8',
};

/** A request as a browser navigation makes it: its Accept, no X-Requested-With. */
const open = (c: Client, p: string, method = 'GET') => c.req(method, p, { xhr: false, headers: BROWSER });

/** The app's page with its page config, its nonce matching the answer's CSP, never cached. */
function expectAppPage(a: Answer, status: number, where: string) {
  expect(a.status, where).toBe(status);
  expect(a.headers.get('content-type'), where).toMatch(/^text\/html/);
  expect(a.headers.get('cache-control'), where).toBe('no-store');
  const nonce = /script-src 'self' 'nonce-([^']+)'/.exec(a.headers.get('content-security-policy') ?? '')?.[1];
  expect(nonce, where).toBeTruthy();
  const tag = /<script id="page-config" type="application\/json" nonce="([^"]+)">([^<]*)<\/script>/.exec(a.text);
  expect(tag?.[1], where).toBe(nonce);
  expect(a.text, where).toContain('id="container"');
  return JSON.parse(tag![2]) as { csrfToken?: string; bootstrap: { me?: { username: string } } };
}

/** The one error shape, 404 NotFound, in the answer's language. */
function expectNotFoundShape(a: Answer, message: string, where: string) {
  expect(a.status, where).toBe(404);
  expect(a.headers.get('content-type'), where).toMatch(/^application\/json/);
  expect(Object.keys(a.json ?? {}).sort(), where).toEqual(['code', 'message', 'requestId', 'status']);
  expect(a.json, where).toMatchObject({ status: 404, code: 'NotFound', message });
  expect(a.json.requestId, where).toBe(a.headers.get('x-request-id'));
}

const ZH = '资源不存在。';
const EN = 'The resource does not exist.';
const UNKNOWN_PAGES = [
  '/docs/',
  '/docs/guide.html',
  '/users/nope',
  '/users/switch/organization/extra',
  '/login',
  '/sso/nowhere',
  '/anything/deep?x=1',
];

describe('honest not-found: unknown pages answer 404 with the app, API and files with the error shape', () => {
  const s = useTestServer({ env: { DIST_DIR: dist }, seed: orgSeed('Acme', ['alice'], { signIn: true }) });

  it("gives a signed-out browser the app's page with 404, naming the not-found page's files", async () => {
    for (const p of UNKNOWN_PAGES) {
      const a = await open(new Client(s.url), p);
      const config = expectAppPage(a, 404, p);
      expect(config.csrfToken, p).toBeUndefined();
      expect(config.bootstrap.me, p).toBeUndefined();
      expect(a.text, p).toContain(`href="${NOT_FOUND_FILE}"`);
    }
    const head = await open(new Client(s.url), '/docs/', 'HEAD');
    expect(head.status).toBe(404);
    expect(head.headers.get('content-type')).toMatch(/^text\/html/);
    expect(head.text).toBe('');
  });

  it('gives a signed-in browser the page with its session (the app shows it in the frame)', async () => {
    for (const p of ['/users/nope', '/users/switch/organization/extra', '/docs/', '/help/']) {
      const config = expectAppPage(await open(s.clients.alice, p), 404, p);
      expect(config.csrfToken, p).toBe(s.clients.alice.csrf);
      expect(config.bootstrap.me?.username, p).toBe('alice');
    }
  });

  it('answers API paths, script calls and JSON clients with the error shape in their language', async () => {
    const signedIn = s.clients.alice;
    const anon = new Client(s.url);
    const en = new Client(s.url, { cookie: `${LOCALE_COOKIE}=en_US` });
    // API prefixes never get the page, even from a browser's address bar.
    expectNotFoundShape(await open(anon, '/users/ajax/v1/nothing-here'), ZH, 'api prefix, browser');
    expectNotFoundShape(await anon.req('GET', '/users/ajax/v1/nothing-here'), ZH, 'api prefix, xhr');
    expectNotFoundShape(await en.req('GET', '/users/ajax/v1/nothing-here'), EN, 'api prefix, en_US');
    expectNotFoundShape(await signedIn.req('POST', '/users/ajax/v1/nothing', { body: {} }), ZH, 'api POST');
    // Any other path asked by script (X-Requested-With) or by a JSON client.
    expectNotFoundShape(await anon.req('GET', '/api/nothing'), ZH, '/api xhr');
    expectNotFoundShape(
      await anon.req('GET', '/api/nothing', { xhr: false, headers: { accept: 'application/json' } }),
      ZH,
      '/api accept json',
    );
    expectNotFoundShape(
      await anon.req('GET', '/api/nothing', { xhr: false, headers: { 'accept-language': 'en-US,en;q=0.9' } }),
      EN,
      '/api Accept-Language en',
    );
    expectNotFoundShape(await signedIn.req('GET', '/users/nope'), ZH, '/users/nope xhr');
    expectNotFoundShape(
      await en.req('GET', '/users/nope', { headers: { ...BROWSER, 'x-requested-with': 'XMLHttpRequest' } }),
      EN,
      '/users/nope xhr with html accept',
    );
    expectNotFoundShape(
      await anon.req('GET', '/docs/', { xhr: false, headers: { accept: 'application/json, text/html;q=0.5' } }),
      ZH,
      'json preferred',
    );
    expectNotFoundShape(await anon.req('GET', '/docs/', { xhr: false, headers: { accept: '*/*' } }), ZH, '*/*');
    // A form post to an unknown page is no navigation to show: the error shape.
    expectNotFoundShape(
      await anon.req('POST', '/docs/', {
        xhr: false,
        headers: { ...BROWSER, 'content-type': 'application/x-www-form-urlencoded' },
        raw: 'a=1',
      }),
      ZH,
      'POST',
    );
  });

  it('keeps known pages at 200 and the redirects as they were', async () => {
    for (const p of [
      '/users/login',
      '/users/login/',
      '/login/errors',
      '/users/errors?type=404',
      '/users/switch/organization',
      '/users/switch/5f0000000000000000000000/app-entry',
      '/users/notifications',
    ]) {
      expectAppPage(await open(new Client(s.url), p), 200, p);
    }
    // Settings pages: the settings shell decides (an unknown section goes to the first one, as always).
    for (const p of ['/users/settings/profile', '/users/settings/ssh', '/users/settings/unknown-section']) {
      expectAppPage(await open(s.clients.alice, p), 200, p);
    }
    for (const [p, to] of [
      ['/', '/users/settings/profile'],
      ['/users/settings', '/users/settings/profile'],
      ['/users/settings?from=mail', '/users/settings/profile?from=mail'],
    ]) {
      const a = await open(new Client(s.url), p);
      expect(a.status, p).toBe(302);
      expect(a.headers.get('location'), p).toBe(to);
    }
    const head = await open(new Client(s.url), '/users/login', 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('answers a missing file with a plain 404, never the page, even to a browser', async () => {
    for (const p of [
      '/static/js/nope.js',
      '/static/css/async/nope.0000aaaa.css',
      '/static/unknown-folder/',
      '/favicon.ico',
      '/brand/logo.svg',
    ]) {
      for (const a of [await open(new Client(s.url), p), await new Client(s.url).req('GET', p, { xhr: false })]) {
        expect(a.status, p).toBe(404);
        expect(a.headers.get('content-type'), p).not.toMatch(/html/);
        expect(a.json?.code, p).toBe('NotFound');
      }
    }
    // The files that are there still come.
    expect((await open(new Client(s.url), '/robots.txt')).status).toBe(200);
  });
});

describe('honest not-found with a build that wrote no page list', () => {
  const s = useTestServer({ seed: orgSeed('Acme', ['alice']) });

  it('keeps every path under the app prefixes as a page and gives other unknown paths the page with 404', async () => {
    expectAppPage(await open(new Client(s.url), '/users/anything'), 200, '/users/anything');
    expectAppPage(await open(new Client(s.url), '/docs/'), 404, '/docs/');
    expectNotFoundShape(await new Client(s.url).req('GET', '/docs/'), ZH, '/docs/ xhr');
  });
});
