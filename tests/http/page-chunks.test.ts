import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCALE_COOKIE } from '../../schemas/locale';
import type { PageChunks } from '../../schemas/page-chunks';
import { Client, orgSeed, useTestServer } from '../kit/server';

// A built edition as the service finds it: the stand-in bundle plus the page-chunks.json the build writes.
const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'page-chunks-dist-'));
fs.cpSync(path.join(import.meta.dirname, '../fixtures/server/web-dist'), dist, { recursive: true });
const chunks: PageChunks = {
  common: ['/static/js/async/antd-root.0000aaaa.js'],
  locales: {
    zh_CN: ['/static/js/async/locale-zh.0000bbbb.js'],
    en_US: ['/static/js/async/antd-locale-en.0000cccc.js'],
  },
  settings: ['/static/js/async/shell-settings.0000eeee.js'],
  routes: [
    {
      path: '/users/login',
      files: ['/static/js/async/plugin-login.0000ffff.js', '/static/css/async/plugin-login.00001111.css'],
    },
  ],
  sections: { profile: ['/static/js/async/plugin-profile.00002222.js'] },
};
fs.writeFileSync(path.join(dist, 'vpc', 'page-chunks.json'), JSON.stringify(chunks));

/** The lazy files a served page names, in order, and whether each script carries the response's nonce. */
function named(html: string, csp: string): { files: string[]; nonced: boolean } {
  const nonce = /'nonce-([^']+)'/.exec(csp)![1];
  const tags = [
    ...html.matchAll(
      /<link rel="preload" as="(?:script|style)" href="(\/static\/[^"]+\/async\/[^"]+)"([^>]*)>/g,
    ),
  ];
  return {
    files: tags.map((m) => m[1]),
    nonced: tags.every((m) => m[1].endsWith('.css') || m[2].includes(`nonce="${nonce}"`)),
  };
}

describe("the page names its first render's lazy files (page-chunks.json)", () => {
  const s = useTestServer({ env: { DIST_DIR: dist }, seed: orgSeed('Acme', ['alice'], { signIn: true }) });

  it("on the login page: antd's root and texts in the page's language, then the page's own files, before the entry", async () => {
    const a = await new Client(s.url).req('GET', '/users/login');
    expect(a.status).toBe(200);
    const { files, nonced } = named(a.text, a.headers.get('content-security-policy')!);
    expect(files).toEqual([
      '/static/js/async/antd-root.0000aaaa.js',
      '/static/js/async/locale-zh.0000bbbb.js',
      '/static/js/async/plugin-login.0000ffff.js',
      '/static/css/async/plugin-login.00001111.css',
    ]);
    expect(nonced).toBe(true);
    expect(a.text.indexOf('plugin-login.00001111.css')).toBeLessThan(a.text.indexOf('/static/js/index.'));
    const en = await new Client(s.url).req('GET', '/users/login', { headers: { cookie: `${LOCALE_COOKIE}=en_US` } });
    expect(named(en.text, en.headers.get('content-security-policy')!).files[1]).toBe(
      '/static/js/async/antd-locale-en.0000cccc.js',
    );
  });

  it('on a settings page only with a session (without one the app sends the visitor to sign in)', async () => {
    const out = await new Client(s.url).req('GET', '/users/settings/profile');
    expect(named(out.text, out.headers.get('content-security-policy')!).files).toEqual([
      '/static/js/async/antd-root.0000aaaa.js',
      '/static/js/async/locale-zh.0000bbbb.js',
    ]);
    const a = await s.clients.alice.req('GET', '/users/settings/profile');
    expect(named(a.text, a.headers.get('content-security-policy')!).files).toEqual([
      '/static/js/async/antd-root.0000aaaa.js',
      '/static/js/async/locale-zh.0000bbbb.js',
      '/static/js/async/shell-settings.0000eeee.js',
      '/static/js/async/plugin-profile.00002222.js',
    ]);
  });

  it('follows a rebuild without a restart, and serves pages as before when the build wrote no list', async () => {
    const file = path.join(dist, 'vpc', 'page-chunks.json');
    fs.writeFileSync(file, JSON.stringify({ ...chunks, common: ['/static/js/async/antd-root.9999aaaa.js'] }));
    fs.utimesSync(file, new Date(), new Date(Date.now() + 5000));
    const a = await new Client(s.url).req('GET', '/users/login');
    expect(a.text).toContain('antd-root.9999aaaa.js');
    fs.rmSync(file);
    const b = await new Client(s.url).req('GET', '/users/login');
    expect(b.status).toBe(200);
    expect(b.text).not.toContain('/async/');
    expect(b.text).toContain('/static/js/index.');
  });
});
