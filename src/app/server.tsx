// The service's renderer of first screens (built for node, one entry per edition: rsbuild.config.ts; loaded by
// server/html/first-screen.ts). It renders the same App the browser hydrates, for one request's page configuration:
// same stores, catalogue and antd texts, so the browser's first render matches it.
import { createCache, extractStyle, StyleProvider } from '@ant-design/cssinjs';
import { enableStaticRendering } from 'mobx-react-lite';
import { text } from 'node:stream/consumers';
import type { ReactNode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import type { RenderPage } from '../../schemas/server-renderer';
import { createRegistry, type MessageCatalogue, type PluginDefinition } from '../core/plugin';
import { createRequestClient, requestOptionsFromPageConfig } from '../core/request';
import { createRootStore } from '../core/stores/root';
import { NO_TRACKER } from '../core/tracking/tracker';
import { RedirectListener } from '../core/ui/Redirect';
import { App, loadAntdTexts } from './App';

// Observers render once and subscribe to nothing: the server keeps no reaction alive after a page.
enableStaticRendering(true);

/**
 * The edition's page renderer over its plugins (the edition's generated server entry exports it as `renderPage`): the
 * HTML of `#container`'s content for a request, rendered to the end (`prerenderToNodeStream` waits for every lazy
 * page and store). Throws when it cannot (no catalogue in the page config, a render error, aborted): the service then
 * serves the page without a first screen.
 */
export function pageRenderer(plugins: PluginDefinition[]): RenderPage {
  const registry = createRegistry(plugins);
  return async ({ url, config, signal }) => {
    const boot = config.bootstrap;
    if (!boot?.messages) throw new Error('the page config carries no catalogue');
    const locale = boot.locale;
    // The request client is never called here (effects do not run on the server); the stores need one.
    const client = createRequestClient(requestOptionsFromPageConfig(config));
    const stores = createRootStore(registry.stores, client, locale, () => NO_TRACKER, { bootstrap: boot });
    const texts = { locale, messages: boot.messages as MessageCatalogue, antd: await loadAntdTexts(locale) };
    const Router = ({ children }: { children: ReactNode }) => <StaticRouter location={url}>{children}</StaticRouter>;
    let failure: unknown;
    let redirected = false;
    // antd's documented server rendering: the styles of what this page renders, collected as it renders, go inline
    // in the page as antd's own style elements, so it paints before the edition's whole sheet arrives, and the app's
    // antd, finding them, writes none of them again while it hydrates.
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
    const html = await text(prelude);
    // A component that threw rendered its error boundary's client fallback: not a first screen to serve.
    if (failure) throw failure;
    signal?.throwIfAborted();
    // A guard redirected: what was rendered is the frame around nothing.
    if (redirected) return undefined;
    // A boundary left pending (`<!--$?-->`) or to the client (`<!--$!-->`), or any script: not a whole first screen.
    if (/<!--\$[?!]-->|<script/.test(html)) throw new Error('the first screen did not render whole');
    return { html, styles: extractStyle(styles) };
  };
}
