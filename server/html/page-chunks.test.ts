import { describe, expect, it } from 'vitest';
import type { PageChunks } from '../../schemas/page-chunks';
import { servedPage, settingsHome } from './page-chunks';
import { renderIndexHtml } from './render';

const pageChunkFiles = (...args: Parameters<typeof servedPage>) => servedPage(...args).files;

const chunks: PageChunks = {
  common: ['/s/antd.js'],
  locales: { zh_CN: ['/s/zh.js'], en_US: ['/s/en.js'] },
  settings: ['/s/vendor.js', '/s/settings.js'],
  routes: [
    { path: '/users/login', files: ['/s/login.js', '/s/login.css'], firstScreen: true },
    { path: '/users/switch/:organizationId/app-entry', files: ['/s/entry.js'] },
  ],
  sections: { profile: ['/s/vendor.js', '/s/profile.js'], tokens: ['/s/tokens.js'] },
  firstScreenSections: ['tokens'],
  notFound: ['/s/not-found.js'],
};

describe('servedPage: found or not', () => {
  it("knows the plugins' routes, any settings page and the app's own pages; elsewhere names the not-found page", () => {
    for (const p of ['/users/login', '/users/switch/o1/app-entry', '/users/settings/profile', '/users/settings/x/y']) {
      expect(servedPage(chunks, p, 'zh_CN', true).found, p).toBe(true);
    }
    expect(servedPage(chunks, '/users/errors', 'zh_CN', false)).toEqual({
      files: ['/s/antd.js', '/s/zh.js'],
      firstScreen: false,
      found: true,
    });
    for (const p of ['/users/nope', '/users/login/more', '/docs', '/login', '/']) {
      expect(servedPage(chunks, p, 'zh_CN', true), p).toEqual({
        files: ['/s/antd.js', '/s/zh.js', '/s/not-found.js'],
        firstScreen: false,
        found: false,
      });
    }
  });
});

describe('pageChunkFiles', () => {
  it("names antd's root and texts, then the route's files (with parameters, a trailing slash)", () => {
    expect(pageChunkFiles(chunks, '/users/login', 'zh_CN', false)).toEqual([
      '/s/antd.js',
      '/s/zh.js',
      '/s/login.js',
      '/s/login.css',
    ]);
    expect(pageChunkFiles(chunks, '/users/login/', 'en_US', false)).toEqual([
      '/s/antd.js',
      '/s/en.js',
      '/s/login.js',
      '/s/login.css',
    ]);
    expect(pageChunkFiles(chunks, '/users/switch/org-1/app-entry', 'zh_CN', true)).toContain('/s/entry.js');
    expect(pageChunkFiles(chunks, '/users/switch//app-entry', 'zh_CN', true)).not.toContain('/s/entry.js');
    expect(pageChunkFiles(chunks, '/users/nothing', 'zh_CN', true)).toEqual([
      '/s/antd.js',
      '/s/zh.js',
      '/s/not-found.js',
    ]);
  });

  it('names a settings section once, with a session only, and nothing for an unknown or inherited key', () => {
    expect(pageChunkFiles(chunks, '/users/settings/profile', 'zh_CN', true)).toEqual([
      '/s/antd.js',
      '/s/zh.js',
      '/s/vendor.js',
      '/s/settings.js',
      '/s/profile.js',
    ]);
    expect(pageChunkFiles(chunks, '/users/settings/profile', 'zh_CN', false)).toEqual(['/s/antd.js', '/s/zh.js']);
    expect(pageChunkFiles(chunks, '/users/settings/nope', 'zh_CN', true)).toEqual(['/s/antd.js', '/s/zh.js']);
    expect(pageChunkFiles(chunks, '/users/settings/constructor', 'zh_CN', true)).toEqual(['/s/antd.js', '/s/zh.js']);
  });
});

describe('servedPage', () => {
  it("says which pages the service renders, by their plugin's declaration", () => {
    expect(servedPage(chunks, '/users/login', 'zh_CN', false).firstScreen).toBe(true);
    expect(servedPage(chunks, '/users/switch/o/app-entry', 'zh_CN', true).firstScreen).toBe(false);
    expect(servedPage(chunks, '/users/settings/profile', 'zh_CN', true).firstScreen).toBe(false);
    // A section that declares it is rendered for a signed-in visitor only (without a session it redirects).
    expect(servedPage(chunks, '/users/settings/tokens', 'zh_CN', true).firstScreen).toBe(true);
    expect(servedPage(chunks, '/users/settings/tokens', 'zh_CN', false).firstScreen).toBe(false);
  });
});

describe('settingsHome', () => {
  it("is the first section of the edition's menu that the build has", () => {
    expect(settingsHome(chunks, [{ key: 'identity-provider' }, { key: 'profile' }])).toBe('/users/settings/profile');
    expect(settingsHome(chunks, [{ key: 'identity-provider' }])).toBeUndefined();
  });
});

describe('renderIndexHtml with lazy files', () => {
  const template =
    '<head><script id="page-config" type="application/json">{}</script>' +
    '<script defer src="/static/js/lib-react.0123abcd.js" nonce="CSP_NONCE_PLACEHOLDER"></script>' +
    '<script defer src="/static/js/index.89abcdef.js" nonce="CSP_NONCE_PLACEHOLDER"></script></head>';
  const config = { appId: 'a', orgId: '', env: 'vpc', host: '', organizationId: '' };

  it('names them before the entry script, scripts and styles preloaded, scripts with the nonce', () => {
    const html = renderIndexHtml(template, config, 'N0NCE', ['/s/a.js', '/s/b.css', '/s/"x".js']);
    expect(html).toContain(
      '<link rel="preload" as="script" href="/s/a.js" nonce="N0NCE" fetchpriority="low"><link rel="preload" as="style" href="/s/b.css">' +
        '<link rel="preload" as="script" href="/s/&quot;x&quot;.js" nonce="N0NCE" fetchpriority="low">' +
        '<script defer src="/static/js/index.89abcdef.js" nonce="N0NCE"></script>',
    );
    expect(html.indexOf('lib-react')).toBeLessThan(html.indexOf('/s/a.js'));
  });

  it('leaves a template without an entry script, or an empty list, as it was', () => {
    const bare = '<script id="page-config" type="application/json">{}</script>';
    expect(renderIndexHtml(bare, config, 'N', ['/s/a.js'])).not.toContain('/s/a.js');
    expect(renderIndexHtml(template, config, 'N', [])).toBe(renderIndexHtml(template, config, 'N'));
  });
});
