import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';
import {
  CLICK_PENDING_ATTR,
  HYDRATED_ATTR,
  HYDRATING_ATTR,
  PRESS_PENDING_ATTR,
  STYLE_KEY_ATTR,
  SUBMIT_PENDING_ATTR,
} from '../../schemas/first-screen';
import { pagePath } from '../../schemas/page-paths';
import { serverRendererFile } from '../../schemas/server-renderer';
import type { PageConfig } from './render';

// A page's first screen rendered by the service: the build's renderer (src/app/server.tsx) turns the request's page
// configuration into the HTML of `#container`, which a phone paints as soon as the document and the stylesheet are
// there, before any script. The app then hydrates it (src/app/start.tsx) instead of rendering it again.

/** The pages whose first screen the service renders for anybody: sign-in and password recovery (no shell). */
const FIRST_SCREEN_PAGES = ['/users/login', '/sso/login', '/users/resetpassword'];

/**
 * The pages whose first screen the service renders for a signed-in visitor (shell and page), and whether
 * that screen shows times. A page joins when its first render depends only on the page config (bootstrap and page
 * data), not on a call's answer; one that shows times is painted only when the browser's time zone is known (its
 * cookie), so the times are the ones the browser would show.
 */
const SIGNED_IN_FIRST_SCREEN_PAGES: ReadonlyMap<string, { showsTimes: boolean }> = new Map([
  ['/users/settings/profile', { showsTimes: false }],
  ['/users/settings/personalAccessToken', { showsTimes: true }],
  ['/users/settings/ssh', { showsTimes: true }],
  ['/users/settings/packagesCredential', { showsTimes: true }],
  ['/users/settings/third-party', { showsTimes: false }],
  ['/users/switch/organization', { showsTimes: false }],
  ['/users/notifications', { showsTimes: true }],
]);

/** Who asks for a page: signed in or not, and the time zone the browser reported (schemas/time-zone.ts). */
export interface FirstScreenVisitor {
  signedIn?: boolean;
  timeZone?: string;
}

/** Whether the service renders the first screen of `pathname` for `visitor` (settings pages only with a session). */
export function rendersFirstScreen(pathname: string, visitor: FirstScreenVisitor = {}): boolean {
  const page = pagePath(pathname);
  if (FIRST_SCREEN_PAGES.includes(page)) return true;
  const settings = visitor.signedIn ? SIGNED_IN_FIRST_SCREEN_PAGES.get(page) : undefined;
  return !!settings && (!settings.showsTimes || !!visitor.timeZone);
}

/** Whether `pathname`'s first screen has the shell (top bar, side bar), which is laid out for the window's width. */
export function firstScreenHasShell(pathname: string): boolean {
  return SIGNED_IN_FIRST_SCREEN_PAGES.has(pagePath(pathname));
}

/** Whether `pathname`'s first screen shows times (rendered in the visitor's zone). */
export function firstScreenShowsTimes(pathname: string): boolean {
  return !!SIGNED_IN_FIRST_SCREEN_PAGES.get(pagePath(pathname))?.showsTimes;
}

/**
 * The service's guess that the browser's window is narrow (a phone or tablet, by its mobile hint or user agent):
 * the shell of a server-rendered page is laid out for it, as the app lays it out below 1280 px.
 */
export function looksNarrow(headers: Record<string, string | string[] | undefined>): boolean {
  if (headers['sec-ch-ua-mobile'] === '?1') return true;
  const ua = headers['user-agent'];
  return typeof ua === 'string' && /Mobi|Android|iPhone|iPad|iPod/i.test(ua);
}

/** How long a render may take before the page goes out without it (the app then renders it, as before). */
export const FIRST_SCREEN_TIMEOUT_MS = 1000;

/** The page configuration as the app reads it: what the page carries, and the nonce of the tag it is in. */
export type RenderedConfig = PageConfig & { nonce?: string };

/** The renderer's preparation (src/app/server.tsx `warmUp`): the code of these pages run before any is asked for. */
type WarmUp = (paths: readonly string[]) => Promise<void>;

/** Every page the service paints. */
const FIRST_SCREEN_PATHS = [...FIRST_SCREEN_PAGES, ...SIGNED_IN_FIRST_SCREEN_PAGES.keys()];

/** The renderer module's page function (src/app/server.tsx `renderPage`); undefined: nothing to paint (a redirect). */
type RenderPage = (input: { url: string; config: RenderedConfig; signal?: AbortSignal }) => Promise<string | undefined>;

/** Loaded renderers by file, shared by every service in the process (a test run builds many): each loads once. */
const loaded = new Map<string, { mtimeMs: number; render: Promise<RenderPage | undefined> }>();

/**
 * Runs a CommonJS file as node's own `require` would (its exports), but without the loader hooks of a TypeScript runner:
 * tsx, which runs the service, transforms every file it loads, which takes 5 s for the renderer's 9 MB instead of 0.4 s.
 */
function evaluateCommonJs(file: string): Record<string, unknown> {
  const source = fs.readFileSync(file, 'utf8');
  const wrapper = vm.runInThisContext(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  }) as (...args: unknown[]) => void;
  const module = { exports: {} as Record<string, unknown> };
  wrapper.call(module.exports, module.exports, createRequire(file), module, file, path.dirname(file));
  return module.exports;
}

/**
 * The renderer in `file` (a CommonJS bundle), loaded again when the file changed (a rebuild); undefined when there is
 * none.
 */
function rendererIn(file: string): Promise<RenderPage | undefined> {
  let mtimeMs: number;
  try {
    mtimeMs = fs.statSync(file).mtimeMs;
  } catch {
    return Promise.resolve(undefined);
  }
  const hit = loaded.get(file);
  if (hit?.mtimeMs === mtimeMs) return hit.render;
  // Loaded after this turn, so that a failure is a rejection like any other.
  const render = Promise.resolve().then(async () => {
    const { renderPage, warmUp } = evaluateCommonJs(file);
    // The pages' code runs now, not in each page's first render.
    if (typeof warmUp === 'function') await (warmUp as WarmUp)(FIRST_SCREEN_PATHS);
    return typeof renderPage === 'function' ? (renderPage as RenderPage) : undefined;
  });
  // A file that failed to load is tried again on the next page, not remembered.
  render.catch(() => loaded.delete(file));
  loaded.set(file, { mtimeMs, render });
  return render;
}

/**
 * Loads the edition's renderer now (a service that starts listening), so that the first page asked for does not wait
 * for it; a renderer that fails to load is logged by the first page that needs it.
 */
export function loadFirstScreenRenderer(distDir: string, edition: string): Promise<void> {
  return rendererIn(serverRendererFile(distDir, edition)).then(
    () => undefined,
    () => undefined,
  );
}

/** The edition's renderer (the build's `dist/.server/<edition>/render.cjs`); none when the build has no renderer. */
export class FirstScreenRenderer {
  private readonly file: string;

  constructor(distDir: string, edition: string) {
    this.file = serverRendererFile(distDir, edition);
  }

  /**
   * The first screen of `url` for `config`, or undefined: no renderer built, it failed, it took too long, or the page
   * only redirects (its guard sends the visitor elsewhere: nothing to paint, nothing to log).
   */
  async render(
    url: string,
    config: RenderedConfig,
    log: (err: unknown) => void,
    timeoutMs = FIRST_SCREEN_TIMEOUT_MS,
  ): Promise<string | undefined> {
    try {
      const render = await rendererIn(this.file);
      if (!render) return undefined;
      const signal = AbortSignal.timeout(timeoutMs);
      // The renderer stops at the signal; the page does not wait for one that would not.
      const late = new Promise<never>((_resolve, reject) =>
        signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true }),
      );
      return await Promise.race([render({ url, config, signal }), late]);
    } catch (err) {
      log(err);
      return undefined;
    }
  }
}

/** The parts of a rendered first screen as the page carries them. */
export interface FirstScreenParts {
  /** The container's content, without style attributes. */
  body: string;
  /** The sheet that holds those styles, one rule per distinct style. */
  css: string;
  /** Resource hints React put before the content (`<link rel="preload">` of an image): they belong in the head. */
  hints: string;
}

/** An attribute value as written in HTML (`&quot;` …), read back as text. */
export const decodeAttr = (v: string) =>
  v
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The declarations of a style attribute: split at each `;` outside quotes and brackets (a `url(data:…;base64,…)`). */
export function splitDeclarations(style: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < style.length; i++) {
    const c = style[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (c === ';' && depth === 0) {
      out.push(style.slice(start, i));
      start = i + 1;
    }
  }
  out.push(style.slice(start));
  return out.map((d) => d.trim()).filter(Boolean);
}

/**
 * Splits a rendered first screen for a page under a CSP without `'unsafe-inline'` styles: every `style="…"` becomes
 * `data-fs-style="n"` and a rule of the page's nonce'd sheet. The rules are `!important`, as an inline style wins
 * over the stylesheets' rules; the app moves them back into the elements' style before it hydrates.
 */
export function splitFirstScreen(html: string): FirstScreenParts {
  let hints = '';
  const body0 = html.replace(/^(?:<link\b[^>]*>)+/, (links) => {
    hints = links;
    return '';
  });
  const keys = new Map<string, number>();
  // React writes attribute values with `"` escaped, and escapes `"` in text as well: ` style="` is only ever an attribute.
  const body = body0.replace(/ style="([^"]*)"/g, (_m, value: string) => {
    let key = keys.get(value);
    if (key === undefined) keys.set(value, (key = keys.size));
    return ` ${STYLE_KEY_ATTR}="${key}"`;
  });
  const css = [...keys]
    .map(([value, key]) => {
      const declarations = splitDeclarations(decodeAttr(value))
        .map((d) => `${d} !important`)
        .join(';');
      return `[${STYLE_KEY_ATTR}="${key}"]{${declarations}}`;
    })
    .join('')
    // Nothing in a rule may end the <style> element.
    .replace(/</g, '\\3c ');
  return { body, css, hints };
}

/**
 * How many script elements the loader adds per task (all preloaded by then): adding one costs the browser 1-3 ms on a
 * slow machine, so thirty at once would be one long task.
 */
const SCRIPTS_PER_TASK = 1;

/**
 * How many preloads the loader starts per task. Each costs the page's thread 0.5-1 ms of work, but on the bench's two
 * shared cores its task often took 10-40 ms of wall time, the thread off its core inside the request's start
 * (`perf sched`: in one load mostly waiting, in another preempted by Chromium's own IO and compile threads), and every
 * task that touches the document makes a frame (Lighthouse takes a screenshot of each, on the same cores). All ~35 in one task made one task of 26-79 ms; three per task gave
 * the same or better medians than one (Lighthouse, 10 runs each of three pages: mean TBT 232/208/111 ms against
 * 244/211/253 ms).
 */
const PRELOADS_PER_TASK = 3;

/**
 * The inline script at the head of a page with a first screen, run before any of it is painted (so nothing the
 * visitor does on it is missed, however slowly the document is parsed): until the app starts hydrating, it holds any
 * form submitted (a plain submit would send the password in the URL) until the app submits it again; the last click on
 * something only the app can act on (a tab, a button, a select's read-only combobox: not a link, a label or a field
 * one types into) is clicked again then too, and a press on such a thing that began before and ends after is
 * completed by the app (src/app/handover.ts). From the start of the hydration React takes the events itself.
 */
export function firstScreenGuard(): string {
  return `(function(){var d=document;
function held(e){var c=d.getElementById('container');return c&&!c.hasAttribute('${HYDRATED_ATTR}')&&!c.hasAttribute('${HYDRATING_ATTR}')&&c.contains(e.target)}
d.addEventListener('submit',function(e){if(held(e)){e.preventDefault();e.target.setAttribute('${SUBMIT_PENDING_ATTR}','')}},true);
function clear(a){var p=d.querySelector('['+a+']');if(p)p.removeAttribute(a)}
function mark(e,a){if(!held(e)||!(e.target instanceof Element)||e.target.closest('a[href],label,textarea,select,input:not([readonly]):not([role=combobox]),[type=submit]'))return;
clear(a);if(a==='${CLICK_PENDING_ATTR}')clear('${PRESS_PENDING_ATTR}');e.target.setAttribute(a,'')}
d.addEventListener('click',function(e){mark(e,'${CLICK_PENDING_ATTR}')},true);
d.addEventListener('mousedown',function(e){if(e.button===0)mark(e,'${PRESS_PENDING_ATTR}')},true)})();`;
}

/**
 * The inline script at the end of a page with a first screen: it loads the page's scripts once that screen is painted
 * (they would otherwise hold the first paint on a slow phone). The scripts are fetched first (preloads), and run only
 * once all of them are there, in the order the page named them (`async = false`): the browser compiles each script on
 * another thread while it arrives, and a script run before that compile is done holds the page's thread until it is
 * (lib-react: 47 ms of a 53 ms task on a busy two-core machine, 11 ms of it work). The app cannot start before its
 * last script anyway. A browser without preloads adds the scripts at once.
 */
export function lateScriptLoader(scripts: string[]): string {
  return `(function(){var d=document,s=${JSON.stringify(scripts).replace(/</g, '\\u003c')},n=d.currentScript.nonce,done=0;
function add(i){for(var j=i;j<s.length&&j<i+${SCRIPTS_PER_TASK};j++){var e=d.createElement('script');e.src=s[j];e.async=false;e.nonce=n;d.head.appendChild(e)}if(j<s.length)setTimeout(add,0,j)}
function go(){if(done)return;done=1;var k=d.createElement('link');if(!(k.relList&&k.relList.supports&&k.relList.supports('preload')))return add(0);var left=s.length;function one(){if(--left===0)setTimeout(add,0,0)}pre(0);
function pre(i){for(var j=i;j<s.length&&j<i+${PRELOADS_PER_TASK};j++){var l=d.createElement('link');l.rel='preload';l.as='script';l.href=s[j];l.nonce=n;l.onload=l.onerror=one;d.head.appendChild(l)}if(j<s.length)setTimeout(pre,0,j)}}
if(d.visibilityState==='hidden')return go();
try{new PerformanceObserver(function(l){if(l.getEntriesByName('first-contentful-paint').length)setTimeout(go,0)}).observe({type:'paint',buffered:true})}catch(e){}
setTimeout(go,2000)})();`;
}
