// The server's renderer of a page's first screen (built per edition for node, rsbuild.config.ts; called by the service,
// server/html/server-render.ts). It renders the same App the browser hydrates, for one request's page configuration:
// same stores, catalogue and antd texts, so the browser's first render matches it node for node.
import { editionPlugins } from '@edition-plugins';
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';
import { enableStaticRendering } from 'mobx-react-lite';
import type { ReactNode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { SUPPORTED_LOCALES } from '../../schemas/locale';
import { setPaintedNow, setShownZone } from '../core/i18n/format';
import type { PageConfig } from '../core/page-config';
import { createRegistry, type MessageCatalogue } from '../core/plugin';
import { createRequestClient, requestOptionsFromPageConfig } from '../core/request';
import { createRootStore } from '../core/stores/root';
import type { Tracker } from '../core/tracking';
import { RedirectListener } from '../core/ui/Redirect';
import { App, loadAntdLocale, preloadRoute } from './App';

// Observers render once and subscribe to nothing: the server keeps no reaction alive after a page.
enableStaticRendering(true);
dayjs.extend(utc);
dayjs.extend(timezone);

const registry = createRegistry(editionPlugins);

/** The server counts nothing: the browser's tracker takes over when the page starts. */
const NO_TRACKING: Tracker = {
  capture: () => {},
  pageView: () => () => {},
  error: () => {},
  apiError: () => {},
  flush: async () => {},
};

/**
 * Runs the code of the pages at `paths` (their shell, section or route, top-bar items), of every store and of antd's
 * texts in both languages, once, as the renderer loads: otherwise each page's first render after a start runs its
 * modules first (about half a second in node, while that page's visitor waits).
 */
export async function warmUp(paths: readonly string[]): Promise<void> {
  await Promise.all([
    ...paths.map((path) => preloadRoute(registry, path, { signedIn: true })),
    ...Object.values(registry.stores).map((load) => load().catch(() => {})),
    ...SUPPORTED_LOCALES.map((locale) => loadAntdLocale(locale).catch(() => {})),
  ]);
}

/** What a page's first screen is rendered from. */
export interface RenderInput {
  /** The requested path and query. */
  url: string;
  /** The page configuration the service puts in the same page (with its bootstrap: locale, catalogue, session). */
  config: PageConfig;
  /** Stops a render that takes too long. */
  signal?: AbortSignal;
}

/**
 * The HTML of `#container`'s content for a request, rendered to the end (lazy pages and stores loaded); undefined when
 * the page's guard only redirects (there is nothing to paint: the browser follows the redirect). Throws when it cannot
 * (no catalogue in the page config, a render error, aborted): the service then serves the empty container.
 */
export function renderPage(input: RenderInput): Promise<string | undefined> {
  // One render at a time: the zone dates are shown in, and the time relative times are measured against, are module
  // state (src/core/i18n/format.ts), and a render that waits for a lazy page would otherwise let another request's
  // render run with its zone and time in between.
  const turn = queue.then(() => renderAlone(input));
  queue = turn.catch(() => {});
  return turn;
}

let queue: Promise<unknown> = Promise.resolve();

async function renderAlone({ url, config, signal }: RenderInput): Promise<string | undefined> {
  signal?.throwIfAborted();
  const zone = config.timeZone;
  setShownZone(zone ? (d) => d.tz(zone) : undefined);
  setPaintedNow(config.paintedAt);
  try {
    return await renderWhole(url, config, signal);
  } finally {
    setShownZone(undefined);
    setPaintedNow(undefined);
  }
}

async function renderWhole(
  url: string,
  config: PageConfig,
  signal: AbortSignal | undefined,
): Promise<string | undefined> {
  const boot = config.bootstrap;
  if (!boot?.messages) throw new Error('the page config carries no catalogue');
  const locale = boot.locale;
  // The request client is never called here (effects do not run on the server); the stores need one.
  const client = createRequestClient(requestOptionsFromPageConfig(config));
  const stores = createRootStore(registry.stores, client, locale, () => NO_TRACKING, { bootstrap: boot });
  const antdLocale = await loadAntdLocale(locale);
  const Router = ({ children }: { children: ReactNode }) => <StaticRouter location={url}>{children}</StaticRouter>;
  let failure: unknown;
  let redirected = false;
  const { prelude } = await prerenderToNodeStream(
    <RedirectListener.Provider value={() => (redirected = true)}>
      <App
        registry={registry}
        stores={stores}
        config={config}
        initialMessages={{ locale, messages: boot.messages as MessageCatalogue }}
        initialAntdLocale={antdLocale}
        Router={Router}
      />
    </RedirectListener.Provider>,
    {
      signal,
      // Every boundary inline, however large: React would otherwise send a large one after the rest, with an inline
      // script to put it in place, which the page's CSP does not run.
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onError: (error) => {
        failure ??= error;
      },
    },
  );
  const parts: Buffer[] = [];
  for await (const part of prelude) parts.push(part as Buffer);
  // A component that threw rendered its error boundary's client fallback: not a first screen to serve.
  if (failure) throw failure;
  // A guard redirected: what was rendered is the frame around nothing.
  if (redirected) return undefined;
  const html = Buffer.concat(parts).toString('utf8');
  // A boundary left pending (`<!--$?-->`) or to the client (`<!--$!-->`), or any script: not a whole first screen.
  if (/<!--\$[?!]-->|<script/.test(html)) throw new Error('the first screen did not render whole');
  return html;
}
