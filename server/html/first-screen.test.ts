import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FIRST_SCREEN_ATTR } from '../../schemas/first-screen';
import { serverRendererFile } from '../../schemas/server-renderer';
import { renderFirstScreen } from './first-screen';
import { renderIndexHtml } from './render';

const config = { appId: 'a', orgId: '', env: 'vpc', host: '', organizationId: '' };

describe('renderIndexHtml', () => {
  const template =
    '<html><head><script id="page-config" type="application/json">{}</script>' +
    '<script defer src="/static/js/lib-react.0123abcd.js" nonce="CSP_NONCE_PLACEHOLDER"></script>' +
    '<script defer src="/static/js/index.89abcdef.js" nonce="CSP_NONCE_PLACEHOLDER"></script>' +
    '<link href="/static/css/index.4444dddd.css" rel="stylesheet"></head>' +
    '<body><div id="container"></div></body></html>';
  const chunks = ['/static/js/antd.1111aaaa.js', '/static/css/login.2222bbbb.css', '/static/js/login.3333cccc.js'];
  const scripts = (html: string) =>
    [
      ...html.matchAll(
        /<(?:script defer src|link rel="preload" as="script" href)="([^"]+)" nonce="N0NCE"(?: fetchpriority="low")?>/g,
      ),
    ].map((m) => m[1]);

  it("names the page's scripts before the entry, in order, preloaded, with the response nonce", () => {
    const html = renderIndexHtml(template, config, 'N0NCE', chunks);
    expect(scripts(html)).toEqual([
      '/static/js/lib-react.0123abcd.js',
      '/static/js/antd.1111aaaa.js',
      '/static/js/login.3333cccc.js',
      '/static/js/index.89abcdef.js',
    ]);
    expect(html).not.toContain('CSP_NONCE_PLACEHOLDER');
  });

  it('leaves the container empty and preloads the page stylesheets without a first screen', () => {
    const html = renderIndexHtml(template, config, 'N0NCE', chunks);
    expect(html).toContain('<div id="container"></div>');
    expect(html).toContain('<link rel="preload" as="style" href="/static/css/login.2222bbbb.css">');
  });

  it('puts a first screen in the marked container, its antd styles first in the head, and links its stylesheets', () => {
    const screen = '<form><label for="username">账号</label><div style="margin-top:12px">x</div></form>';
    const styles = '<style data-css-hash="a1">.ant-btn{color:red}</style>';
    const html = renderIndexHtml(template, config, 'N0NCE', chunks, { html: screen, styles });
    expect(html).toContain(`<div id="container" ${FIRST_SCREEN_ATTR}>${screen}</div>`);
    expect(html).toContain(`<head>${styles}`);
    expect(html).toContain('<link rel="stylesheet" href="/static/css/login.2222bbbb.css">');
  });

  it('writes the page configuration so that no value can close its script element', () => {
    const html = renderIndexHtml(template, { ...config, host: '</script><script>alert(1)</script>' }, 'N0NCE');
    expect(html).not.toContain('</script><script>alert(1)');
    expect(html).toContain('\\u003c/script\\u003e');
  });
});

describe('renderFirstScreen', () => {
  const temps: string[] = [];
  afterEach(() => {
    while (temps.length) fs.rmSync(temps.pop()!, { recursive: true, force: true });
  });

  const render = (dist: string, edition: string, url: string, log: (err: unknown) => void, timeoutMs?: number) =>
    renderFirstScreen(serverRendererFile(dist, edition), { url, config }, log, timeoutMs);

  /** A dist folder whose `vpc` renderer is `source` (CommonJS), or none. */
  function distWith(source?: string): { dist: string; file: string } {
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'first-screen-'));
    temps.push(dist);
    const file = serverRendererFile(dist, 'vpc');
    // Under a package of ES modules, as the build's renderer is: the service runs it as CommonJS all the same.
    fs.writeFileSync(path.join(dist, 'package.json'), '{"type":"module"}');
    if (source !== undefined) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, source);
    }
    return { dist, file };
  }

  it("returns the renderer's HTML for the request's URL and page configuration", async () => {
    const { dist } = distWith(
      "exports.renderPage = async ({ url, config }) => ({ html: `<p>${url} ${config.env}</p>`, styles: '' });",
    );
    const log = vi.fn();
    const html = await render(dist, 'vpc', '/users/login?next=%2F', log);
    expect(html).toEqual({ html: '<p>/users/login?next=%2F vpc</p>', styles: '' });
    expect(log).not.toHaveBeenCalled();
  });

  it('returns nothing, and logs nothing, for a page the renderer says only redirects', async () => {
    const log = vi.fn();
    const redirecting = distWith('exports.renderPage = async () => undefined;').dist;
    expect(await render(redirecting, 'vpc', '/users/settings/x', log)).toBeUndefined();
    expect(log).not.toHaveBeenCalled();
  });

  it('returns nothing when the build has no renderer, or one without renderPage', async () => {
    const log = vi.fn();
    expect(await render(distWith().dist, 'vpc', '/users/login', log)).toBeUndefined();
    const other = distWith('exports.somethingElse = 1;').dist;
    expect(await render(other, 'vpc', '/users/login', log)).toBeUndefined();
    expect(await render(other, 'global', '/users/login', log)).toBeUndefined();
    expect(log).not.toHaveBeenCalled();
  });

  it('returns nothing and logs the error when the render fails or the renderer cannot load', async () => {
    const failing = distWith("exports.renderPage = async () => { throw new Error('no catalogue'); };").dist;
    const log = vi.fn();
    expect(await render(failing, 'vpc', '/users/login', log)).toBeUndefined();
    expect(log).toHaveBeenCalledTimes(1);
    expect((log.mock.calls[0][0] as Error).message).toBe('no catalogue');

    // A renderer of an older build (a bare string) gives no first screen, logged: never a broken page.
    const stale = distWith("exports.renderPage = async () => '<p>old</p>';").dist;
    expect(await render(stale, 'vpc', '/users/login', log)).toBeUndefined();
    const broken = distWith('exports.renderPage = async () => {').dist;
    const log2 = vi.fn();
    expect(await render(broken, 'vpc', '/users/login', log2)).toBeUndefined();
    expect(log2).toHaveBeenCalledWith(expect.any(Error));
  });

  it('gives up on a render that outlasts the timeout, through the signal it passes', async () => {
    const { dist } = distWith(`exports.renderPage = ({ signal }) => new Promise((resolve, reject) => {
      const timer = setTimeout(() => resolve({ html: '<p>late</p>', styles: '' }), 10000);
      signal.addEventListener('abort', () => { clearTimeout(timer); reject(signal.reason); });
    });`);
    const log = vi.fn();
    const started = performance.now();
    expect(await render(dist, 'vpc', '/users/login', log, 100)).toBeUndefined();
    const took = performance.now() - started;
    expect(took).toBeGreaterThanOrEqual(90);
    expect(took).toBeLessThan(2000);
    expect(log).toHaveBeenCalledWith(expect.objectContaining({ name: 'TimeoutError' }));
  });

  it('picks up a rebuilt renderer (a new modification time) without a restart, and keeps it while unchanged', async () => {
    const { dist, file } = distWith("exports.renderPage = async () => ({ html: '<p>one</p>', styles: '' });");
    const log = vi.fn();
    expect(await render(dist, 'vpc', '/users/login', log)).toEqual({ html: '<p>one</p>', styles: '' });
    expect(await render(dist, 'vpc', '/users/login', log)).toEqual({ html: '<p>one</p>', styles: '' });

    fs.writeFileSync(file, "exports.renderPage = async () => ({ html: '<p>two</p>', styles: '' });");
    const later = new Date(Date.now() + 10_000);
    fs.utimesSync(file, later, later);
    expect(await render(dist, 'vpc', '/users/login', log)).toEqual({ html: '<p>two</p>', styles: '' });

    // Removed (a rebuild in progress): nothing is rendered until it is back.
    fs.rmSync(file);
    expect(await render(dist, 'vpc', '/users/login', log)).toBeUndefined();
    expect(log).not.toHaveBeenCalled();
  });
});
