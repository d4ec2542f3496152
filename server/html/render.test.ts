import { describe, expect, it } from 'vitest';
import type { PageConfig } from '../../schemas/page-config';
import { renderIndexHtml } from './render';

const template =
  '<!doctype html><html lang="zh-CN"><head><script id="page-config" type="application/json">{}</script></head>' +
  '<body><div id="container"></div></body></html>';
const config = { appId: 'a', orgId: '', env: 'global', host: '', organizationId: '' };

describe('renderIndexHtml', () => {
  it("names the language the app will show, not the edition's default the build wrote", () => {
    const en = renderIndexHtml(template, { ...config, bootstrap: { locale: 'en_US' } }, 'N');
    expect(en).toContain('<html lang="en">');
    const zh = renderIndexHtml(template.replace('zh-CN', 'en'), { ...config, bootstrap: { locale: 'zh_CN' } }, 'N');
    expect(zh).toContain('<html lang="zh-CN">');
    expect(renderIndexHtml(template, config, 'N')).toContain('<html lang="zh-CN">');
  });

  it("names the page's lazy files before the entry, the template's last script", () => {
    const withScripts = template.replace(
      '</head>',
      '<script defer src="/static/js/lib-react.1.js"></script><script defer src="/static/js/vpc.2.js"></script></head>',
    );
    const html = renderIndexHtml(withScripts, config, 'N', ['/static/js/async/page.3.js']);
    expect(html).toContain(
      '<script defer src="/static/js/lib-react.1.js"></script>' +
        '<link rel="preload" as="script" href="/static/js/async/page.3.js" nonce="N" fetchpriority="low">' +
        '<script defer src="/static/js/vpc.2.js"></script>',
    );
  });

  it("sets the dark sheet's media by the account's choice; a signed-out page follows the system", () => {
    const withDark = template.replace(
      '</head>',
      '<link rel="stylesheet" id="antd-dark" media="not all" href="/antd-dark.1.css"></head>',
    );
    const media = (scheme?: 'system' | 'light' | 'dark') => {
      const me = scheme && ({ colorScheme: scheme } as NonNullable<NonNullable<PageConfig['bootstrap']>['me']>);
      const html = renderIndexHtml(withDark, { ...config, bootstrap: { locale: 'en_US', ...(me ? { me } : {}) } }, 'N');
      return /id="antd-dark" media="([^"]*)"/.exec(html)?.[1];
    };
    expect(media('dark')).toBe('all');
    expect(media('light')).toBe('not all');
    expect(media('system')).toBe('(prefers-color-scheme: dark)');
    expect(media()).toBe('(prefers-color-scheme: dark)');
  });
});
