import { describe, expect, it } from 'vitest';
import { pageChunks } from './page-chunks';

describe('pageChunks', () => {
  it("lists per page the groups the app loads: frame and header items, the page's chunk, stylesheet and stores", () => {
    const groups: Record<string, string[]> = {
      'antd-root': ['/a/antd.js'],
      'locale-zh': ['/a/zh.js'],
      'antd-locale-en': ['/a/en.js'],
      dayjs: ['/a/dayjs.js'],
      'shell-frame': ['/a/vendor.js', '/a/frame.js'],
      'shell-settings': ['/a/vendor.js', '/a/settings.js'],
      'shell-not-found': ['/a/vendor.js', '/a/not-found.js'],
      bell: ['/a/bell.js'],
      'plugin-p': ['/a/vendor.js', '/a/p.js', '/a/p.css'],
      'plugin-p-page': ['/a/page.js'],
      'plugin-p-store': ['/a/store.js'],
    };
    const p = {
      id: 'p',
      routes: [
        { path: '/users/p', frame: 'app' as const, chunks: ['plugin-p-page', 'plugin-p', 'plugin-p-store'] },
        {
          path: '/users/bare',
          frame: 'bare' as const,
          chunks: ['plugin-p-page', 'plugin-p', 'plugin-p-store'],
          firstScreen: true,
        },
      ],
      sections: [
        { key: 'pp', chunks: ['plugin-p', 'plugin-p-store'] },
        { key: 'painted', chunks: ['plugin-p'], firstScreen: true },
      ],
      headerItems: [{ chunks: ['bell'] }],
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
      {
        path: '/users/bare',
        files: ['/a/page.js', '/a/vendor.js', '/a/p.js', '/a/p.css', '/a/store.js'],
        firstScreen: true,
      },
    ]);
    expect(chunks.sections).toEqual({
      pp: ['/a/vendor.js', '/a/p.js', '/a/p.css', '/a/store.js'],
      painted: ['/a/vendor.js', '/a/p.js', '/a/p.css'],
    });
    expect(chunks.firstScreenSections).toEqual(['painted']);
    // An unknown path's page: the shell's not-found page with the header items (a signed-in visitor sees the frame).
    expect(chunks.notFound).toEqual(['/a/vendor.js', '/a/not-found.js', '/a/bell.js']);
  });

  it('fails the build on a declared chunk the build did not make', () => {
    const p = { id: 'p', routes: [{ path: '/x', chunks: ['plugin-typo'] }], sections: [], headerItems: [] };
    expect(() =>
      pageChunks([p], {
        'antd-root': [],
        'locale-zh': [],
        'antd-locale-en': [],
        dayjs: [],
        'shell-frame': [],
        'shell-settings': [],
        'shell-not-found': [],
      }),
    ).toThrow(/no chunk named "plugin-typo"/);
  });
});
