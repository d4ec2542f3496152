import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { STYLE_KEY_ATTR, STYLE_SHEET_ID } from '../../schemas/first-screen';
import { serverRendererFile } from '../../schemas/server-renderer';
import {
  FirstScreenRenderer,
  firstScreenGuard,
  firstScreenHasShell,
  firstScreenShowsTimes,
  loadFirstScreenRenderer,
  looksNarrow,
  rendersFirstScreen,
  splitDeclarations,
  splitFirstScreen,
  type FirstScreenParts,
} from './first-screen';
import { renderIndexHtml } from './render';

const config = { appId: 'a', orgId: '', env: 'vpc', host: '', organizationId: '' };

describe('looksNarrow', () => {
  it("guesses a narrow window from the browser's mobile hint or a phone or tablet user agent", () => {
    expect(looksNarrow({ 'sec-ch-ua-mobile': '?1' })).toBe(true);
    expect(looksNarrow({ 'user-agent': 'Mozilla/5.0 (Linux; Android 11; moto g power) Mobile Safari/537.36' })).toBe(
      true,
    );
    expect(looksNarrow({ 'user-agent': 'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X)' })).toBe(true);
    expect(looksNarrow({ 'sec-ch-ua-mobile': '?0', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/120' })).toBe(
      false,
    );
    expect(looksNarrow({})).toBe(false);
  });
});

describe('rendersFirstScreen', () => {
  it('renders the profile page only for a signed-in visitor; the sign-in pages either way', () => {
    expect(rendersFirstScreen('/users/settings/profile', { signedIn: true })).toBe(true);
    expect(rendersFirstScreen('/users/settings/profile/', { signedIn: true })).toBe(true);
    expect(rendersFirstScreen('/users/settings/profile', { signedIn: false, timeZone: 'Asia/Shanghai' })).toBe(false);
    expect(rendersFirstScreen('/users/settings/unknown', { signedIn: true })).toBe(false);
    expect(rendersFirstScreen('/users/login', { signedIn: true })).toBe(true);
    expect(firstScreenShowsTimes('/users/settings/profile')).toBe(false);
    // The shell (and so the narrow-window guess) is on the signed-in pages only.
    expect(firstScreenHasShell('/users/settings/profile/')).toBe(true);
    expect(firstScreenHasShell('/users/notifications')).toBe(true);
    expect(firstScreenHasShell('/users/login')).toBe(false);
    expect(rendersFirstScreen('/users/settings/third-party', { signedIn: true })).toBe(true);
    expect(rendersFirstScreen('/users/settings/third-party', {})).toBe(false);
    expect(rendersFirstScreen('/users/switch/organization', { signedIn: true })).toBe(true);
    expect(rendersFirstScreen('/users/switch/organization', {})).toBe(false);
  });

  it('renders a page that shows times only when the browser reported its time zone', () => {
    const tokens = '/users/settings/personalAccessToken';
    expect(firstScreenShowsTimes(tokens)).toBe(true);
    expect(rendersFirstScreen(tokens, { signedIn: true })).toBe(false);
    expect(rendersFirstScreen(tokens, { signedIn: true, timeZone: 'Asia/Shanghai' })).toBe(true);
    expect(rendersFirstScreen(tokens, { timeZone: 'Asia/Shanghai' })).toBe(false);
    // The message center's relative times too.
    expect(firstScreenShowsTimes('/users/notifications')).toBe(true);
    expect(rendersFirstScreen('/users/notifications', { signedIn: true })).toBe(false);
    expect(rendersFirstScreen('/users/notifications', { signedIn: true, timeZone: 'Asia/Shanghai' })).toBe(true);
  });

  it('renders the sign-in and recovery pages, with or without a trailing slash, and nothing else', () => {
    for (const p of ['/users/login', '/users/login/', '/sso/login', '/sso/login/', '/users/resetpassword'])
      expect(rendersFirstScreen(p)).toBe(true);
    for (const p of ['/users/settings/profile', '/users/settings', '/users/login/x', '/']) {
      expect(rendersFirstScreen(p)).toBe(false);
    }
  });
});

describe('splitFirstScreen', () => {
  it('replaces every style attribute with a key, one key per distinct style', () => {
    const { body, css } = splitFirstScreen(
      '<div style="margin-top:12px;text-align:right"><span style="color:red">a</span>' +
        '<span style="color:red">b</span></div>',
    );
    expect(body).toBe(
      `<div ${STYLE_KEY_ATTR}="0"><span ${STYLE_KEY_ATTR}="1">a</span><span ${STYLE_KEY_ATTR}="1">b</span></div>`,
    );
    expect(body).not.toMatch(/ style="/);
    expect(css).toBe(
      `[${STYLE_KEY_ATTR}="0"]{margin-top:12px !important;text-align:right !important}` +
        `[${STYLE_KEY_ATTR}="1"]{color:red !important}`,
    );
  });

  it('decodes the attribute entities React wrote into the rule', () => {
    const { css } = splitFirstScreen(
      '<p style="font-family:&quot;Helvetica Neue&quot;, &#x27;PingFang SC&#x27;;content:&#39;a&amp;b&#39;">x</p>',
    );
    expect(css).toBe(
      `[${STYLE_KEY_ATTR}="0"]{font-family:"Helvetica Neue", 'PingFang SC' !important;content:'a&b' !important}`,
    );
  });

  it('escapes `<` in the sheet, so no style value can close the style element', () => {
    const { css } = splitFirstScreen('<p style="content:&quot;&lt;/style&gt;&lt;script&gt;&quot;">x</p>');
    expect(css).not.toContain('<');
    expect(css.toLowerCase()).not.toContain('</style');
    expect(css).toContain('\\3c /style>');
  });

  it('moves the link hints React put before the content to the head, and leaves later links in place', () => {
    const hints = '<link rel="preload" as="image" href="/logo.svg"/><link rel="preload" as="image" href="/bg.png"/>';
    const parts = splitFirstScreen(`${hints}<div><link rel="stylesheet" href="/late.css"/>x</div>`);
    expect(parts.hints).toBe(hints);
    expect(parts.body).toBe('<div><link rel="stylesheet" href="/late.css"/>x</div>');
    expect(splitFirstScreen('<div>x</div>').hints).toBe('');
  });

  it('leaves text that reads like a style attribute alone (React escapes quotes in text)', () => {
    const html = '<p>write style=&quot;color:red&quot; here</p><textarea> style=&quot;x&quot;</textarea>';
    expect(splitFirstScreen(html)).toEqual({ body: html, css: '', hints: '' });
  });
});

describe('renderIndexHtml with a first screen', () => {
  const template =
    '<html><head><script id="page-config" type="application/json">{}</script>' +
    '<script defer src="/static/js/lib-react.0123abcd.js" nonce="CSP_NONCE_PLACEHOLDER"></script>' +
    '<script defer src="/static/js/lib-intl.4567cdef.js" nonce="CSP_NONCE_PLACEHOLDER"></script>' +
    '<script defer src="/static/js/index.89abcdef.js" nonce="CSP_NONCE_PLACEHOLDER"></script>' +
    '<link href="/static/css/index.4444dddd.css" rel="stylesheet"></head>' +
    '<body><div id="container"></div></body></html>';
  const chunks = ['/static/js/antd.1111aaaa.js', '/static/css/login.2222bbbb.css', '/static/js/login.3333cccc.js'];
  const screen: FirstScreenParts = {
    body: `<form><label for="username">账号</label><div ${STYLE_KEY_ATTR}="0">x</div></form>`,
    css: `[${STYLE_KEY_ATTR}="0"]{margin-top:12px !important}`,
    hints: '<link rel="preload" as="image" href="/logo.svg"/>',
  };
  const loadedScripts = (html: string) => {
    const list = /var d=document,s=(\[[^\]]*\])/.exec(html)?.[1];
    return list === undefined ? undefined : (JSON.parse(list) as string[]);
  };

  it("links the page's stylesheets after the core one, as the app adds them, so their rules win as there", () => {
    const html = renderIndexHtml(template, config, 'N0NCE', chunks, screen);
    const core = html.indexOf('/static/css/index.4444dddd.css');
    const page = html.indexOf('<link rel="stylesheet" href="/static/css/login.2222bbbb.css">');
    expect(core).toBeGreaterThan(0);
    expect(page).toBeGreaterThan(core);
  });

  it('fills the container and puts the styles and hints in the head', () => {
    const html = renderIndexHtml(template, config, 'N0NCE', chunks, screen);
    expect(html).toContain(`<div id="container">${screen.body}</div>`);
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toContain(`${screen.hints}<style id="${STYLE_SHEET_ID}" nonce="N0NCE">${screen.css}</style>`);
  });

  it('runs no script before the paint: the loader adds them all, in the page order, once it is painted', () => {
    const html = renderIndexHtml(template, config, 'N0NCE', chunks, screen);
    expect(html).not.toContain('<script defer');
    expect(loadedScripts(html)).toEqual([
      '/static/js/lib-react.0123abcd.js',
      '/static/js/lib-intl.4567cdef.js',
      '/static/js/antd.1111aaaa.js',
      '/static/js/login.3333cccc.js',
      '/static/js/index.89abcdef.js',
    ]);
    // The loader is the last thing in the body, after the container.
    expect(html).toMatch(
      /<div id="container">[\s\S]*<\/div><script nonce="N0NCE">\(function\(\)\{[\s\S]*\}\)\(\);<\/script><\/body>/,
    );
  });

  it('guards the page from the head, before any stylesheet (which would hold the script) and the painted body', () => {
    const html = renderIndexHtml(template, config, 'N0NCE', chunks, screen);
    const guard = html.indexOf(`<script nonce="N0NCE">${firstScreenGuard()}</script>`);
    expect(guard).toBeGreaterThan(html.indexOf('id="page-config"'));
    expect(guard).toBeLessThan(html.indexOf('<link'));
    expect(guard).toBeLessThan(html.indexOf('</head>'));
  });

  it('preloads no script (they load after the paint), and links the page stylesheet instead of preloading it', () => {
    const html = renderIndexHtml(template, config, 'N0NCE', chunks, screen);
    expect(html).not.toContain('as="script"');
    expect(html).toContain('<link rel="stylesheet" href="/static/css/login.2222bbbb.css">');
    expect(html).not.toContain('as="style"');
  });

  it('gives every script and style element the response nonce', () => {
    const html = renderIndexHtml(template, config, 'N0NCE', chunks, screen);
    expect(html).not.toContain('CSP_NONCE_PLACEHOLDER');
    const tags = html.match(/<(script|style)\b[^>]*>/g) ?? [];
    expect(tags).toHaveLength(4); // page config, guard, first-screen styles, loader
    for (const tag of tags) expect(tag).toContain('nonce="N0NCE"');
  });

  it('keeps a script path with quotes or ampersands intact in the loader list', () => {
    const html = renderIndexHtml(template, config, 'N', ['/s/a&b.js', '/s/"q".js', '/s/</script>.js'], screen);
    expect(loadedScripts(html)).toContain('/s/a&b.js');
    expect(loadedScripts(html)).toContain('/s/"q".js');
    expect(loadedScripts(html)).toContain('/s/</script>.js');
    const loader = html.slice(html.lastIndexOf('<script nonce="N">'));
    expect(loader.indexOf('</script>')).toBe(loader.length - '</script></body></html>'.length);
  });

  it('leaves the page as before without a first screen: empty container, deferred scripts, preloaded styles', () => {
    const html = renderIndexHtml(template, config, 'N0NCE', chunks);
    expect(html).toContain('<div id="container"></div>');
    expect(html).toContain('<link rel="preload" as="style" href="/static/css/login.2222bbbb.css">');
    expect(html).not.toContain('<link rel="stylesheet"');
    expect(html.match(/<script defer src="[^"]+" nonce="N0NCE"><\/script>/g)).toHaveLength(5);
    expect(html).not.toContain(STYLE_SHEET_ID);
    expect(loadedScripts(html)).toBeUndefined();
  });
});

describe('FirstScreenRenderer', () => {
  const temps: string[] = [];
  afterEach(() => {
    while (temps.length) fs.rmSync(temps.pop()!, { recursive: true, force: true });
  });

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
      'exports.renderPage = async ({ url, config }) => `<p>${url} ${config.env} ${config.nonce}</p>`;',
    );
    const log = vi.fn();
    const html = await new FirstScreenRenderer(dist, 'vpc').render(
      '/users/login?next=%2F',
      { ...config, nonce: 'n1' },
      log,
    );
    expect(html).toBe('<p>/users/login?next=%2F vpc n1</p>');
    expect(log).not.toHaveBeenCalled();
  });

  it('has the renderer run the code of every painted page before the first render, once, when the service starts', async () => {
    const { dist } = distWith(`
      let warmed;
      exports.warmUp = async (paths) => { await new Promise((r) => setTimeout(r, 20)); warmed = (warmed ?? 0) + 1; exports.paths = paths; };
      exports.renderPage = async () => '<p>' + warmed + ' ' + exports.paths.join(' ') + '</p>';
    `);
    await loadFirstScreenRenderer(dist, 'vpc');
    const html = await new FirstScreenRenderer(dist, 'vpc').render('/users/login', config, vi.fn());
    expect(html).toContain('<p>1 /users/login ');
    expect(html).toContain(' /users/settings/profile ');
    expect(html).toContain(' /users/notifications');
    expect(await new FirstScreenRenderer(dist, 'vpc').render('/users/login', config, vi.fn())).toBe(html);
  });

  it('returns nothing, and logs nothing, for a page the renderer says only redirects', async () => {
    const log = vi.fn();
    const redirecting = distWith('exports.renderPage = async () => undefined;').dist;
    expect(await new FirstScreenRenderer(redirecting, 'vpc').render('/users/settings/x', config, log)).toBeUndefined();
    expect(log).not.toHaveBeenCalled();
  });

  it('returns nothing when the build has no renderer, or one without renderPage', async () => {
    const log = vi.fn();
    expect(await new FirstScreenRenderer(distWith().dist, 'vpc').render('/users/login', config, log)).toBeUndefined();
    const other = distWith('exports.somethingElse = 1;').dist;
    expect(await new FirstScreenRenderer(other, 'vpc').render('/users/login', config, log)).toBeUndefined();
    expect(await new FirstScreenRenderer(other, 'global').render('/users/login', config, log)).toBeUndefined();
    expect(log).not.toHaveBeenCalled();
  });

  it('returns nothing and logs the error when the render fails or the renderer cannot load', async () => {
    const failing = distWith("exports.renderPage = async () => { throw new Error('no catalogue'); };").dist;
    const log = vi.fn();
    expect(await new FirstScreenRenderer(failing, 'vpc').render('/users/login', config, log)).toBeUndefined();
    expect(log).toHaveBeenCalledTimes(1);
    expect((log.mock.calls[0][0] as Error).message).toBe('no catalogue');

    const broken = distWith('exports.renderPage = async () => {').dist;
    const log2 = vi.fn();
    expect(await new FirstScreenRenderer(broken, 'vpc').render('/users/login', config, log2)).toBeUndefined();
    expect(log2).toHaveBeenCalledWith(expect.any(Error));
  });

  it('gives up on a render that outlasts the timeout, through the signal it passes', async () => {
    const { dist } = distWith(`exports.renderPage = ({ signal }) => new Promise((resolve, reject) => {
      const timer = setTimeout(() => resolve('<p>late</p>'), 10000);
      signal.addEventListener('abort', () => { clearTimeout(timer); reject(signal.reason); });
    });`);
    const log = vi.fn();
    const started = performance.now();
    expect(await new FirstScreenRenderer(dist, 'vpc').render('/users/login', config, log, 100)).toBeUndefined();
    const took = performance.now() - started;
    expect(took).toBeGreaterThanOrEqual(90);
    expect(took).toBeLessThan(2000);
    expect(log).toHaveBeenCalledWith(expect.objectContaining({ name: 'TimeoutError' }));
  });

  it('does not wait past the timeout for a renderer that ignores the signal', async () => {
    const { dist } = distWith(
      "exports.renderPage = () => new Promise((resolve) => setTimeout(() => resolve('<p>late</p>'), 3000));",
    );
    const log = vi.fn();
    const started = performance.now();
    expect(await new FirstScreenRenderer(dist, 'vpc').render('/users/login', config, log, 100)).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(2000);
    expect(log).toHaveBeenCalledTimes(1);
  });

  it('picks up a rebuilt renderer (a new modification time) without a restart, and keeps it while unchanged', async () => {
    const { dist, file } = distWith("exports.renderPage = async () => '<p>one</p>';");
    const renderer = new FirstScreenRenderer(dist, 'vpc');
    const log = vi.fn();
    expect(await renderer.render('/users/login', config, log)).toBe('<p>one</p>');
    expect(await renderer.render('/users/login', config, log)).toBe('<p>one</p>');

    fs.writeFileSync(file, "exports.renderPage = async () => '<p>two</p>';");
    const later = new Date(Date.now() + 10_000);
    fs.utimesSync(file, later, later);
    expect(await renderer.render('/users/login', config, log)).toBe('<p>two</p>');

    // Removed (a rebuild in progress): nothing is rendered until it is back.
    fs.rmSync(file);
    expect(await renderer.render('/users/login', config, log)).toBeUndefined();
    expect(log).not.toHaveBeenCalled();
  });
});

describe('splitDeclarations', () => {
  it('splits a style at its semicolons, not at those inside quotes or brackets', () => {
    expect(splitDeclarations('margin:0; font-size:20px;')).toEqual(['margin:0', 'font-size:20px']);
    expect(splitDeclarations('background:url("data:image/png;base64,AA==");color:red')).toEqual([
      'background:url("data:image/png;base64,AA==")',
      'color:red',
    ]);
    expect(splitDeclarations("font-family:'a;b', serif;top:0")).toEqual(["font-family:'a;b', serif", 'top:0']);
    expect(splitDeclarations('background:url(data:image/png;base64,AA==)')).toEqual([
      'background:url(data:image/png;base64,AA==)',
    ]);
  });
});
