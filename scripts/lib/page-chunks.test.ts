import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pageChunks, pluginChunkNames } from './page-chunks';

const plugin = (id: string) => path.join(import.meta.dirname, '../../plugins', id, 'index.ts');

describe('pluginChunkNames', () => {
  it('reads routes (inline loaders and named ones, frames), sections, header items and stores from the definitions', () => {
    expect(pluginChunkNames(plugin('login'))).toEqual({
      routes: [
        { path: '/users/login', frame: 'bare', chunk: 'plugin-login' },
        { path: '/login/errors', frame: 'bare', chunk: 'plugin-login-errors' },
        { path: '/sso/login', frame: 'bare', chunk: 'plugin-login' },
      ],
      sections: [],
      headerItems: [],
      stores: ['plugin-login'],
    });
    expect(pluginChunkNames(plugin('profile'))).toEqual({
      routes: [{ path: '/users/emails', frame: 'bare', chunk: 'plugin-profile-emails' }],
      sections: [{ key: 'profile', chunk: 'plugin-profile' }],
      headerItems: [],
      stores: ['plugin-profile-store'],
    });
    const inbox = pluginChunkNames(plugin('notifications'));
    expect(inbox.routes).toEqual([{ path: '/users/notifications', frame: 'app', chunk: 'plugin-notifications' }]);
    expect(inbox.headerItems).toEqual(['plugin-notifications-bell']);
    expect(inbox.stores).toEqual(['plugin-notifications-bell']);
  });

  it('finds every route and section of every plugin, and refuses a loader that names no chunk', () => {
    const dir = path.join(import.meta.dirname, '../../plugins');
    for (const id of fs.readdirSync(dir).filter((d) => fs.existsSync(plugin(d)))) {
      const names = pluginChunkNames(plugin(id));
      const source = fs.readFileSync(plugin(id), 'utf8');
      // As many routes and sections as the definition has paths and sidebar keys.
      expect(names.routes.length, id).toBe(source.match(/\bpath: '/g)?.length ?? 0);
      expect(names.sections.length, id).toBe(source.match(/\bmessageId: '/g)?.length ?? 0);
    }
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'page-chunks-'));
    const bad = path.join(tmp, 'index.ts');
    fs.writeFileSync(bad, "export default { routes: [{ path: '/x', load: () => import('./X') }] };\n");
    expect(() => pluginChunkNames(bad)).toThrow(/import\('\.\/X'\) names no webpackChunkName/);
    fs.rmSync(tmp, { recursive: true, force: true });
  });
});

describe('pageChunks', () => {
  it("lists per page the groups the app loads: frame and header items, the page's chunk, stylesheet and stores", () => {
    const groups: Record<string, string[]> = {
      'antd-root': ['/a/antd.js'],
      'locale-zh': ['/a/zh.js'],
      'antd-locale-en': ['/a/en.js'],
      dayjs: ['/a/dayjs.js'],
      'shell-frame': ['/a/vendor.js', '/a/frame.js'],
      'shell-settings': ['/a/vendor.js', '/a/settings.js'],
      bell: ['/a/bell.js'],
      'plugin-p': ['/a/vendor.js', '/a/p.js', '/a/p.css'],
      'plugin-p-page': ['/a/page.js'],
      'plugin-p-store': ['/a/store.js'],
    };
    const p = {
      id: 'p',
      names: {
        routes: [
          { path: '/users/p', frame: 'app' as const, chunk: 'plugin-p-page' },
          { path: '/users/bare', frame: 'bare' as const, chunk: 'plugin-p-page' },
        ],
        sections: [{ key: 'pp', chunk: 'plugin-p' }],
        headerItems: ['bell'],
        stores: ['plugin-p-store'],
      },
    };
    const chunks = pageChunks([p], groups);
    expect(chunks.common).toEqual(['/a/antd.js']);
    expect(chunks.locales).toEqual({
      zh_CN: ['/a/zh.js', '/a/dayjs.js'],
      en_US: ['/a/en.js', '/a/dayjs.js'],
    });
    expect(chunks.settings).toEqual(['/a/vendor.js', '/a/settings.js', '/a/bell.js']);
    expect(chunks.routes).toEqual([
      {
        path: '/users/p',
        files: ['/a/vendor.js', '/a/frame.js', '/a/bell.js', '/a/page.js', '/a/p.js', '/a/p.css', '/a/store.js'],
      },
      { path: '/users/bare', files: ['/a/page.js', '/a/vendor.js', '/a/p.js', '/a/p.css', '/a/store.js'] },
    ]);
    expect(chunks.sections).toEqual({ pp: ['/a/vendor.js', '/a/p.js', '/a/p.css', '/a/store.js'] });
  });
});
