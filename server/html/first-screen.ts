import { createRequire } from 'node:module';
import type { PageConfig } from '../../schemas/page-config';
import { serverRendererFile, type FirstScreen, type RenderPage } from '../../schemas/server-renderer';
import { FileCache } from './file-cache';

// A page's first screen rendered by the service: the build's renderer (src/app/server.tsx) turns the request's page
// configuration into the HTML of `#container`, which the browser paints before any script; the app then hydrates it
// (src/app/start.tsx). Which pages are rendered so is the plugins' declaration (`firstScreen`, in page-chunks.json).

/** How long a render may take before the page goes out without it (the app then renders it in the browser). */
export const FIRST_SCREEN_TIMEOUT_MS = 1000;

/** Loaded renderers (CommonJS bundles) by file, shared by every service in the process (a test run builds many). */
const renderers = new FileCache((file) => {
  const require = createRequire(file);
  delete require.cache[require.resolve(file)];
  const { renderPage } = require(file) as { renderPage?: unknown };
  return typeof renderPage === 'function' ? (renderPage as RenderPage) : undefined;
});

/** Loads the edition's renderer now (a service that starts listening), so that the first page does not wait for it. */
export function loadFirstScreenRenderer(distDir: string, edition: string): void {
  try {
    renderers.get(serverRendererFile(distDir, edition));
  } catch {
    // logged by the first page that needs it
  }
}

/**
 * The first screen of `url` for `config` by the renderer in `file` (`serverRendererFile`), or undefined: no renderer
 * built, it failed (logged), it took too long, or the page only redirects (its guard sends the visitor elsewhere:
 * nothing to paint, nothing to log).
 */
export async function renderFirstScreen(
  file: string,
  page: { url: string; config: PageConfig },
  log: (err: unknown) => void,
  timeoutMs = FIRST_SCREEN_TIMEOUT_MS,
): Promise<FirstScreen | undefined> {
  try {
    const screen = await renderers.get(file)?.({ ...page, signal: AbortSignal.timeout(timeoutMs) });
    if (screen !== undefined && (typeof screen?.html !== 'string' || typeof screen.styles !== 'string')) {
      throw new Error('the renderer answered no first screen: a build older than the service?');
    }
    return screen;
  } catch (err) {
    log(err);
    return undefined;
  }
}
