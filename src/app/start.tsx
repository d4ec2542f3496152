import { editionPlugins } from '@edition-plugins';
import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { FIRST_SCREEN_ATTR } from '../../schemas/first-screen';
import { edition } from '../core/edition';
import { localeTag, resolveLocale } from '../core/i18n/locale';
import { readPageConfig } from '../core/page-config';
import { createRegistry, type MessageCatalogue } from '../core/plugin';
import { configureRequestClient, defaultShowServerError } from '../core/request';
import { createRootStore } from '../core/stores/root';
import { preload } from '../core/ui/lazyLoaded';
import { App, loadAntdLocale, loadAntdRoot, type AntdLocaleTexts } from './App';
import { settleAfterCommit } from './settle';
import { startAppTracking } from './tracking';

/**
 * The app's start-up: stores from the page configuration's bootstrap, then the first render. A page the service
 * rendered (its container marked `FIRST_SCREEN_ATTR`) is hydrated with `hydrateRoot`, once antd's texts are here (the
 * server rendered with them); any other page is rendered with `createRoot`.
 */
export async function start(): Promise<void> {
  const registry = createRegistry(editionPlugins);
  const config = readPageConfig();
  // antd's root module starts loading now; the ≥500 notice, which antd renders outside the React tree, waits for it
  // to be configured with the app's theme.
  const antdReady = preload(loadAntdRoot)
    .then((m) => m.configureAntd())
    .catch(() => {}); // the page's own lazy load shows that failure
  const client = configureRequestClient({
    showServerError: (notice) => void antdReady.then(() => defaultShowServerError(notice)),
    onUnauthorized: () => {
      const next = encodeURIComponent(window.location.pathname + window.location.search);
      window.location.assign(`${edition.paths.relogin}?next=${next}`);
    },
  });
  const boot = config.bootstrap;
  // The service chose the page's language by the same rule (the locale cookie, else the edition's default).
  const locale = boot?.locale ?? resolveLocale(document.cookie, edition.locale.default);
  document.documentElement.lang = localeTag(locale, 'html');
  const antdLocale = loadAntdLocale(locale);
  antdLocale.catch(() => {}); // the app asks again and handles a failure
  const stores = createRootStore(registry.stores, client, locale, (session) => startAppTracking(session, client), {
    bootstrap: boot,
  });
  const initialMessages = boot?.messages ? { locale, messages: boot.messages as MessageCatalogue } : undefined;
  const container = document.getElementById('container');
  if (!container) return;
  const app = (initialAntdLocale?: AntdLocaleTexts) => (
    <App
      registry={registry}
      stores={stores}
      config={config}
      initialMessages={initialMessages}
      initialAntdLocale={initialAntdLocale}
      onPageCommitted={settleAfterCommit}
    />
  );
  if (container.hasAttribute(FIRST_SCREEN_ATTR) && initialMessages) {
    const texts = await antdLocale.catch(() => undefined);
    if (texts) {
      // As a transition: React hydrates in slices, and what the visitor acts on first hydrates first (React's own
      // event replay).
      startTransition(() => void hydrateRoot(container, app(texts)));
      return;
    }
  }
  const root = createRoot(container);
  startTransition(() => root.render(app()));
}
