import fs from 'node:fs';
import { createRequire } from 'node:module';
import { serverRendererFile } from '../../schemas/server-renderer';
import type { PageConfig } from './render';

// A page's first screen rendered by the service: the build's renderer (src/app/server.tsx) turns the request's page
// configuration into the HTML of `#container`, which the browser paints before any script; the app then hydrates it
// (src/app/start.tsx). Which pages are rendered so is the plugins' declaration (`firstScreen`, in page-chunks.json).

/** How long a render may take before the page goes out without it (the app then renders it in the browser). */
export const FIRST_SCREEN_TIMEOUT_MS = 1000;

/** The renderer module's page function (src/app/server.tsx `renderPage`); undefined: nothing to paint (a redirect). */
type RenderPage = (input: {
  url: string;
  config: PageConfig;
  signal?: AbortSignal;
}) => Promise<FirstScreen | undefined>;

/** A rendered first screen: the container's HTML and the antd rules it uses. */
export interface FirstScreen {
  html: string;
  css: string;
}

/** Loaded renderers by file and version, shared by every service in the process (a test run builds many). */
const loaded = new Map<string, { mtimeMs: number; render: RenderPage | undefined }>();

/** The renderer in `file` (a CommonJS bundle), loaded again when the file changed (a rebuild); none without a file. */
function rendererIn(file: string): RenderPage | undefined {
  let mtimeMs: number;
  try {
    mtimeMs = fs.statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
  const hit = loaded.get(file);
  if (hit?.mtimeMs === mtimeMs) return hit.render;
  const require = createRequire(file);
  delete require.cache[require.resolve(file)];
  const { renderPage } = require(file) as { renderPage?: unknown };
  const render = typeof renderPage === 'function' ? (renderPage as RenderPage) : undefined;
  loaded.set(file, { mtimeMs, render });
  return render;
}

/** Loads the edition's renderer now (a service that starts listening), so that the first page does not wait for it. */
export function loadFirstScreenRenderer(distDir: string, edition: string): void {
  try {
    rendererIn(serverRendererFile(distDir, edition));
  } catch {
    // logged by the first page that needs it
  }
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
    config: PageConfig,
    log: (err: unknown) => void,
    timeoutMs = FIRST_SCREEN_TIMEOUT_MS,
  ): Promise<FirstScreen | undefined> {
    try {
      const render = rendererIn(this.file);
      const screen = await render?.({ url, config, signal: AbortSignal.timeout(timeoutMs) });
      if (screen !== undefined && (typeof screen?.html !== 'string' || typeof screen.css !== 'string')) {
        throw new Error('the renderer answered no first screen: a build older than the service?');
      }
      return screen;
    } catch (err) {
      log(err);
      return undefined;
    }
  }
}
