// The service's renderer of first screens (built for node, one entry per edition: rsbuild.config.ts; loaded by
// server/html/first-screen.ts). It renders the same App the browser hydrates, for one request's page configuration:
// same stores, catalogue and antd texts, so the browser's first render matches it.
import { createCache, extractStyle, StyleProvider } from '@ant-design/cssinjs';
import { enableStaticRendering } from 'mobx-react-lite';
import type { ReactNode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import type { PageConfig } from '../core/page-config';
import { createRegistry, type MessageCatalogue, type PluginDefinition } from '../core/plugin';
import { createRequestClient, requestOptionsFromPageConfig } from '../core/request';
import { createRootStore } from '../core/stores/root';
import type { Tracker } from '../core/tracking';
import { RedirectListener } from '../core/ui/Redirect';
import { App, loadAntdTexts } from './App';

// Observers render once and subscribe to nothing: the server keeps no reaction alive after a page.
enableStaticRendering(true);

/** The server counts nothing: the browser's tracker takes over when the page starts. */
const NO_TRACKING: Tracker = {
  capture: () => {},
  pageView: () => () => {},
  error: () => {},
  apiError: () => {},
  flush: async () => {},
};

/** What a page's first screen is rendered from. */
export interface RenderInput {
  /** The requested path and query. */
  url: string;
  /** The page configuration the service puts in the same page (with its bootstrap: locale, catalogue, session). */
  config: PageConfig;
  /** Stops a render that takes too long. */
  signal?: AbortSignal;
}

/** The edition's page renderer over its plugins (the edition's generated server entry exports it as `renderPage`). */
export function pageRenderer(plugins: PluginDefinition[]) {
  const registry = createRegistry(plugins);
  return (input: RenderInput) => renderPage(registry, input);
}

/**
 * The HTML of `#container`'s content for a request, rendered to the end (`prerenderToNodeStream` waits for every lazy
 * page and store); undefined when the page's guard only redirects (nothing to paint: the browser follows the
 * redirect). Throws when it cannot (no catalogue in the page config, a render error, aborted): the service then
 * serves the page without a first screen.
 */
async function renderPage(
  registry: ReturnType<typeof createRegistry>,
  { url, config, signal }: RenderInput,
): Promise<{ html: string; css: string } | undefined> {
  const boot = config.bootstrap;
  if (!boot?.messages) throw new Error('the page config carries no catalogue');
  const locale = boot.locale;
  // The request client is never called here (effects do not run on the server); the stores need one.
  const client = createRequestClient(requestOptionsFromPageConfig(config));
  const stores = createRootStore(registry.stores, client, locale, () => NO_TRACKING, { bootstrap: boot });
  const texts = { locale, messages: boot.messages as MessageCatalogue, antd: await loadAntdTexts(locale) };
  const Router = ({ children }: { children: ReactNode }) => <StaticRouter location={url}>{children}</StaticRouter>;
  let failure: unknown;
  let redirected = false;
  // antd's documented server rendering: the styles of what this page renders, collected as it renders, go inline
  // in the page, so it paints before the edition's whole sheet arrives.
  const styles = createCache();
  const { prelude } = await prerenderToNodeStream(
    <StyleProvider cache={styles}>
      <RedirectListener.Provider value={() => (redirected = true)}>
        <App registry={registry} stores={stores} config={config} initialTexts={texts} Router={Router} />
      </RedirectListener.Provider>
    </StyleProvider>,
    {
      signal,
      // Every boundary inline, however large: React would otherwise send a large one after the rest, with an inline
      // script to put it in place.
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
  signal?.throwIfAborted();
  // A guard redirected: what was rendered is the frame around nothing.
  if (redirected) return undefined;
  const html = Buffer.concat(parts).toString('utf8');
  // A boundary left pending (`<!--$?-->`) or to the client (`<!--$!-->`), or any script: not a whole first screen.
  if (/<!--\$[?!]-->|<script/.test(html)) throw new Error('the first screen did not render whole');
  return { html, css: extractStyle(styles, { plain: true }) };
}
