import { editionPlugins } from '@edition-plugins';
import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { edition } from '../core/edition';
import { setPaintedNow } from '../core/i18n/format';
import { localeTag, resolveLocale } from '../core/i18n/locale';
import { rememberTimeZone } from '../core/i18n/time-zone';
import { readPageConfig } from '../core/page-config';
import { createRegistry, type MessageCatalogue } from '../core/plugin';
import { configureRequestClient, defaultShowServerError } from '../core/request';
import { createRootStore } from '../core/stores/root';
import { preload } from '../core/ui/lazyLoaded';
import { App, loadAntdLocale, loadAntdRoot, preloadRoute, type AntdLocaleTexts } from './App';
import { nextTask } from './evaluate-modules';
import { beginHandover, completeHandover, restoreFirstScreenStyles } from './handover';
import { settleAfterCommit } from './settle';
import { startAppTracking } from './tracking';

/**
 * The app's start-up: stores, the route's code and antd's texts on their way, then the first render; the route's
 * stores are made in a task of their own (core and route stores together took 15-20 ms on the bench's machine).
 */
export async function start(): Promise<void> {
  const registry = createRegistry(editionPlugins);
  const config = readPageConfig();
  // antd's root module starts loading now (the page needs it), and is configured as soon as it arrives: the ≥500
  // notice, which antd renders outside the React tree, waits for that, or it would render unthemed and without the
  // page's nonce (styles the CSP blocks).
  const antdReady = preload(loadAntdRoot)
    .then((m) => m.configureAntd(config.nonce))
    .catch(() => {}); // the page's own lazy load shows that failure
  const client = configureRequestClient({
    showServerError: (notice) => void antdReady.then(() => defaultShowServerError(notice)),
    onUnauthorized: () => {
      const next = encodeURIComponent(window.location.pathname + window.location.search);
      window.location.assign(`${edition.paths.relogin}?next=${next}`);
    },
  });
  const timeZone = rememberTimeZone();
  const locale = resolveLocale(document.cookie, edition.locale.default);
  document.documentElement.lang = localeTag(locale, 'html');
  const boot = config.bootstrap;
  // The route's code and antd's texts start loading now, alongside the rest of the start-up, not after the first render.
  const antdLocale = loadAntdLocale(locale);
  antdLocale.catch(() => {}); // the app asks again and handles a failure
  const stores = createRootStore(registry.stores, client, locale, (session) => startAppTracking(session, client), {
    bootstrap: boot,
  });
  await nextTask();
  const routeReady = preloadRoute(registry, window.location.pathname, { stores, signedIn: !!boot?.me });
  const initialMessages =
    boot?.messages && boot.locale === locale ? { locale, messages: boot.messages as MessageCatalogue } : undefined;
  const container = document.getElementById('container');
  if (!container) return;
  // The app, and once its page committed (hydrated, on a painted page) what the visitor did meanwhile handed over.
  const app = (initialAntdLocale?: AntdLocaleTexts) => (
    <App
      registry={registry}
      stores={stores}
      config={config}
      initialMessages={initialMessages}
      initialAntdLocale={initialAntdLocale}
      onPageCommitted={() => {
        // Relative times measured against the painted time only for the render that hydrates the paint.
        setPaintedNow(undefined);
        completeHandover(container);
        settleAfterCommit();
      }}
    />
  );
  // Renders the page afresh (and, on a painted page, releases the forms the page held until the app was there).
  const renderAfresh = () => {
    container.replaceChildren();
    const root = createRoot(container);
    // As a transition, React renders the page in slices of a few milliseconds, yielding to the browser between them,
    // not in one long task (which on a phone blocks input for a few hundred milliseconds).
    startTransition(() => root.render(app()));
  };
  // A painted page is hydrated only with the state it was painted from (its bootstrap, in the language it shows, and
  // its times in this browser's zone); without that (a page config that lost it, a zone changed since the cookie was
  // written), the app starts afresh.
  const paintedElsewhere = !!config.timeZone && config.timeZone !== timeZone;
  if (!container.hasChildNodes() || !initialMessages || paintedElsewhere) {
    renderAfresh();
    return;
  }
  // The service rendered the page (server/html/first-screen.ts): once antd, its texts and the page's code are here,
  // the app hydrates it, rendering exactly what the server did, and then takes over what the visitor did meanwhile.
  restoreFirstScreenStyles(document);
  void Promise.all([antdReady, antdLocale, routeReady]).then(
    // Hydrated as a transition too (in slices); what the visitor does meanwhile hydrates its part at once.
    async ([, texts]) => {
      // Not in the task that set the stores up (or that brought the last of these).
      await nextTask();
      // The first render measures relative times against the time the page was painted at, as the service did.
      setPaintedNow(config.paintedAt);
      startTransition(() => {
        beginHandover(container);
        hydrateRoot(container, app(texts));
      });
    },
    // Without antd's texts the first render cannot match the server's.
    renderAfresh,
  );
}
