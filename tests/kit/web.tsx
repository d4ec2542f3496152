import { act, render, type RenderResult } from '@testing-library/react';
import { runInAction } from 'mobx';
import { Suspense, type ComponentType, type ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { IntlProvider } from 'react-intl';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { localeTag } from '../../schemas/locale';
import { AccessContext } from '../../src/core/access';
import type { EditionManifest, Locale } from '../../src/core/edition';
import { createRegistry, RegistryContext, type PluginDefinition } from '../../src/core/plugin';
import type { Tracker } from '../../src/core/tracking';
import { NO_TRACKER } from '../../src/core/tracking/tracker';
import { BrowserStateProvider } from '../../src/core/ui/BrowserState';
import {
  createRootStore,
  StoresProvider,
  type PluginStores,
  type RootStore,
  type StoreMap,
} from '../../src/core/stores/root';
import type { Me } from '../../schemas/session';
import { fakeBackend, type FakeBackend } from './fake-backend';

/** Page tests render through the same providers the app uses: real catalogues, a real root store, a router. */

declare global {
  interface ImportMeta {
    /** Vite's static glob import (vitest runs the kit through Vite). */
    glob<T>(patterns: string | string[], options: { eager: true; import?: string }): Record<string, T>;
  }
}

const CATALOGUES = import.meta.glob<Record<string, string>>(
  ['../../src/core/messages/*.json', '../../src/shell/messages/*.json', '../../plugins/*/messages/*.json'],
  { eager: true, import: 'default' },
);

const PLUGINS = Object.values(
  import.meta.glob<PluginDefinition>('../../plugins/*/index.ts', { eager: true, import: 'default' }),
);

/** Every catalogue of one locale merged, core and shell first, as the app loads them. */
export function messagesOf(locale: Locale): Record<string, string> {
  return Object.assign(
    {},
    ...Object.entries(CATALOGUES)
      .filter(([file]) => file.endsWith(`/${locale}.json`))
      .sort(([a], [b]) => Number(a.includes('/plugins/')) - Number(b.includes('/plugins/')))
      .map(([, catalogue]) => catalogue),
  );
}

/** The signed-in user of page tests unless a test names another. */
export const TEST_USER: Me = {
  id: 'u1',
  username: 'alice',
  name: 'Alice',
  email: null,
  email_verified: false,
  avatar: null,
  language: null,
  must_change_password: false,
  organization_id: 'o1',
  colorScheme: 'system',
};

/** Options of `renderWithCore`. */
/** A tracker that keeps nothing, for root stores built in tests. */
export { NO_TRACKER };

/**
 * A root store over `backend` whose page brought `pageData` for the plugins' first render (`bootstrap.plugins`), as
 * the app builds it: for tests of a store factory that seeds itself from the page.
 */
export function rootStoreWithPageData(
  loaders: PluginStores,
  backend: FakeBackend,
  pageData?: Record<string, unknown>,
): RootStore {
  return createRootStore(loaders, backend.client, 'zh_CN', () => NO_TRACKER, {
    bootstrap: { locale: 'zh_CN', ...(pageData ? { plugins: pageData } : {}) },
  });
}

export interface RenderWithCoreOptions {
  /** Ready-made section stores; others load through their plugin's lazy factory, as in the app. */
  stores?: Partial<StoreMap>;
  /** UI language (default en_US): picks the catalogues and the Intl locale. */
  locale?: Locale;
  /** The URL the router starts at (default `/`). */
  route?: string;
  /** The route pattern the UI is mounted at (default every path), e.g. `/users/settings/personalAccessToken/*`. */
  path?: string;
  /** Messages added to (or replacing) the real catalogues. */
  messages?: Record<string, string>;
  /** The backend every store calls (default one that answers 404 to everything). */
  backend?: FakeBackend;
  /** The signed-in user (default `TEST_USER`); null: nobody is signed in. */
  user?: Partial<Me> | null;
  /** Identities of the organisation's installed apps (default none). */
  installedApps?: string[];
  /** Edition feature flags instead of the test edition's. */
  features?: EditionManifest['features'];
  /** What the page brought for the plugins' first render (`bootstrap.plugins`), by plugin id. */
  pageData?: Record<string, unknown>;
}

/** What `renderWithCore` gives back besides testing-library's result. */
export interface CoreRender extends RenderResult {
  /** The root store the UI runs on (session, client, section stores). */
  root: RootStore;
  /** The fake backend behind the root store's client. */
  backend: FakeBackend;
  /** Usage events the UI captured, as `[action, page, params]`. */
  captured: Array<[string, string, Record<string, unknown> | undefined]>;
  /** The router's current path, e.g. after the UI navigated. */
  location(): string;
}

/**
 * Renders `ui` inside the app's providers: IntlProvider with the real catalogues, root store, access flags, router.
 * Async because a page suspends until its store module has loaded: the first render runs in an awaited `act`, so
 * React retries it when the module arrives (a suspension inside a synchronous `act` is never retried).
 */
export async function renderWithCore(ui: ReactNode, options: RenderWithCoreOptions = {}): Promise<CoreRender> {
  const locale = options.locale ?? 'en_US';
  const backend = options.backend ?? fakeBackend();
  const captured: CoreRender['captured'] = [];
  const tracker: Tracker = {
    capture: (action, page, params) => void captured.push([action, page, params]),
    pageView: () => () => {},
    error: () => {},
    apiError: () => {},
    flush: async () => {},
  };
  const registry = createRegistry(PLUGINS);
  const root = createRootStore(registry.stores, backend.client, locale, () => tracker, {
    stores: options.stores,
    features: options.features,
    ...(options.pageData ? { bootstrap: { locale, plugins: options.pageData } } : {}),
  });
  runInAction(() => {
    const { session } = root;
    session.user = options.user === null ? null : { ...TEST_USER, ...options.user };
    session.installedApps = options.installedApps ?? [];
    session.signedOut = options.user === null;
    session.loading = false;
  });
  const where = { path: options.route ?? '/' };
  function Probe() {
    where.path = useLocation().pathname;
    return null;
  }
  const messages = { ...messagesOf(locale), ...options.messages };
  // As the app does once its texts are loaded: the central notice and Accept-Language follow the UI language.
  backend.client.configure({ translate: (id) => messages[id] ?? id, language: () => localeTag(locale) });
  let result: RenderResult | undefined;
  const tree = (
    <IntlProvider locale={localeTag(locale)} messages={messages} defaultLocale={localeTag('zh_CN')}>
      <RegistryContext.Provider value={registry}>
        <StoresProvider value={root}>
          <AccessContext.Provider value={root.session.access}>
            <BrowserStateProvider>
              <MemoryRouter initialEntries={[where.path]}>
                <Probe />
                <Suspense fallback={null}>
                  <Routes>
                    <Route path={options.path ?? '*'} element={ui} />
                  </Routes>
                </Suspense>
              </MemoryRouter>
            </BrowserStateProvider>
          </AccessContext.Provider>
        </StoresProvider>
      </RegistryContext.Provider>
    </IntlProvider>
  );
  await act(async () => {
    result = render(tree);
  });
  return Object.assign(result!, { root, backend, captured, location: () => where.path });
}

/**
 * The HTML of one render pass of `Component` (renderToString does not wait: a part that would suspend shows the
 * fallback `<i>waiting</i>`), so a test tells a render in one pass apart.
 */
export function renderInOnePass(Component: ComponentType): string {
  return renderToString(
    <Suspense fallback={<i>waiting</i>}>
      <Component />
    </Suspense>,
  );
}

/** happy-dom's window: its matchMedia and innerWidth follow the viewport it is given. */
interface HappyWindow {
  happyDOM: { setViewport(viewport: { width: number; height: number }): void };
}

/** Makes the test window `width` px wide (800 high), as a browser window of that size. */
export function setViewport(width: number): void {
  (window as unknown as HappyWindow).happyDOM.setViewport({ width, height: 800 });
}
