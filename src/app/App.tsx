import { observer } from 'mobx-react-lite';
import { lazy, Suspense, useEffect, useMemo, useState, type ComponentType, type ReactNode } from 'react';
import { createIntl, IntlProvider } from 'react-intl';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router-dom';
import type { SupportedLocale } from '../../schemas/locale';
import { AccessContext } from '../core/access';
import { edition } from '../core/edition';
import { localeTag } from '../core/i18n/locale';
import { PageConfigContext, type PageConfig } from '../core/page-config';
import { RegistryContext, type MessageCatalogue, type PluginRoute, type Registry } from '../core/plugin';
import { StoresProvider, type RootStore } from '../core/stores/root';
import { PageViews } from '../core/tracking/app';
import { lazyLoaded } from '../core/ui/lazyLoaded';
import { BrowserStateProvider } from '../core/ui/BrowserState';
import { RouteGuard } from '../shell/RouteGuard';
import { ErrorBoundary } from '../shell/errors/ErrorBoundary';
import { DARK_SHEET_ID, darkSheetMedia } from '../../schemas/first-screen';
import { useMediaQuery } from '../core/ui/responsive';
import type { AntdLocale } from './antd';

/** antd's root (./antd.tsx): loaded with the page's code, not in the first scripts; start.tsx starts it at once. */
export const loadAntdRoot = () => import(/* webpackChunkName: "antd-root" */ './antd');
const AntdRoot = lazyLoaded(loadAntdRoot);
const SettingsShell = lazyLoaded(() => import(/* webpackChunkName: "shell-settings" */ '../shell/SettingsShell'));
const NotFoundPage = lazy(() => import(/* webpackChunkName: "shell-not-found" */ '../shell/NotFoundPage'));
const FramedPage = lazyLoaded(() => import(/* webpackChunkName: "shell-frame" */ '../shell/FramedPage'));
const UsersErrorsPage = lazy(() => import(/* webpackChunkName: "shell-errors" */ '../shell/ErrorRoutes'));

/** Core and shell catalogues of one locale, in the same chunk as the plugins' (`messages-<locale>`). */
const FRAME_MESSAGES = {
  zh_CN: () =>
    Promise.all([
      import(/* webpackChunkName: "messages-zh_CN" */ '../core/messages/zh_CN.json'),
      import(/* webpackChunkName: "messages-zh_CN" */ '../shell/messages/zh_CN.json'),
    ]),
  en_US: () =>
    Promise.all([
      import(/* webpackChunkName: "messages-en_US" */ '../core/messages/en_US.json'),
      import(/* webpackChunkName: "messages-en_US" */ '../shell/messages/en_US.json'),
    ]),
};

/**
 * antd's texts (pagination, date picker…) in the app locale, fetched on demand to keep both out of the initial bundle.
 * Chinese comes in one file with dayjs's Chinese locale (the same chunk name), which the app loads beside it.
 */
const ANTD_LOCALES = {
  zh_CN: () => import(/* webpackChunkName: "locale-zh" */ 'antd/es/locale/zh_CN'),
  en_US: () => import(/* webpackChunkName: "antd-locale-en" */ 'antd/es/locale/en_US'),
};

/** antd's texts of `locale`; undefined when they could not be loaded (antd's English defaults then). */
export const loadAntdTexts = (locale: SupportedLocale): Promise<AntdLocale | undefined> =>
  ANTD_LOCALES[locale]()
    .then((m) => m.default)
    .catch(() => undefined);

/** Every text a page shows in one language: the app's catalogue and antd's own. */
export interface LocaleTexts {
  locale: SupportedLocale;
  messages: MessageCatalogue;
  antd?: AntdLocale;
}

/**
 * The texts of the app locale, loaded on demand; the previous locale's stay shown while a switch loads. The page's
 * own (its catalogue put there by the service, antd's loaded before the first render) render at once.
 */
function useTexts(registry: Registry, locale: SupportedLocale, initial?: LocaleTexts) {
  const [texts, setTexts] = useState<LocaleTexts | undefined>(initial);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (texts?.locale === locale) return;
    let live = true;
    Promise.all([FRAME_MESSAGES[locale](), registry.loadMessages(locale), loadAntdTexts(locale)])
      .then(([[core, shell], plugins, antd]) => {
        if (live) setTexts({ locale, messages: { ...core.default, ...shell.default, ...plugins }, antd });
      })
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
    // `texts` is read only to skip a language already there; it is not a reason to load again.
  }, [registry, locale]);
  return { texts, failed };
}

/** Shown when not even the texts could be loaded (offline): both languages, plain HTML, a reload button. */
function MessagesFailed() {
  return (
    <main role="alert" style={{ padding: '96px 24px', textAlign: 'center', fontFamily: 'system-ui, sans-serif' }}>
      <p>页面加载失败，请重新加载。 / The page failed to load, please reload.</p>
      <button type="button" onClick={() => window.location.reload()}>
        重新加载 / Reload
      </button>
    </main>
  );
}

/**
 * What the app places only after it rendered (a tab's ink bar, a table column's shadow, a focus ring) would otherwise
 * slide into place at every page's start, while a phone is busiest. So `<body data-settling>` (index.html) turns those
 * transitions off (global.css) until 400 ms after the commit of the Suspense boundary this sits in (the page's).
 */
function Settled() {
  useEffect(() => void setTimeout(() => document.body.removeAttribute('data-settling'), 400), []);
  return null;
}

/** `/users/settings` leads to the first section of the edition's menu that this bundle has. */
function SettingsHome({ registry }: { registry: Registry }) {
  const first = edition.settingsMenu.find((e) => registry.section(e.key));
  return first ? <Navigate to={`/users/settings/${first.key}`} replace /> : <NotFoundPage />;
}

/** Props of the root component. */
export interface AppProps {
  registry: Registry;
  stores: RootStore;
  /** The page configuration (the document's in the browser, the request's on the server). */
  config: PageConfig;
  /** The texts the page starts with (the catalogue the service put in it, antd's already loaded), shown at once. */
  initialTexts?: LocaleTexts;
  /** The router the routes sit in: the browser's by default; the server renders one location. */
  Router?: ComponentType<{ children: ReactNode }>;
}

/** A plugin route as an element: lazy page, its `auth` check, and the product frame unless `bare`. */
function routeElement(route: PluginRoute, Page: ComponentType) {
  const page = (
    <RouteGuard auth={route.auth}>
      <Page />
    </RouteGuard>
  );
  return route.frame === 'bare' ? page : <FramedPage>{page}</FramedPage>;
}

/** Root: stores, locale, theme from the brand colour, and every route of the product. */
export const App = observer(function App({ registry, stores, config, initialTexts, Router = BrowserRouter }: AppProps) {
  const { session } = stores;
  const locale = session.locale;
  const { texts, failed } = useTexts(registry, locale, initialTexts);
  const messages = texts?.messages;
  const pages = useMemo(() => registry.routes.map((r) => [r, lazyLoaded(r.load)] as const), [registry]);
  useEffect(() => {
    // dayjs and its Chinese locale load on demand; pages that format dates load after the messages anyway.
    const dayjsLocale = locale === 'zh_CN' ? import(/* webpackChunkName: "locale-zh" */ 'dayjs/locale/zh-cn') : null;
    void Promise.all([import(/* webpackChunkName: "dayjs" */ 'dayjs'), dayjsLocale])
      .then(([{ default: dayjs }]) => dayjs.locale(localeTag(locale, 'dayjs')))
      .catch(() => {});
    if (messages) {
      // Compiled messages are syntax trees: the request client's texts are formatted like the pages' are.
      // An unknown id answers the id itself, as before.
      const intl = createIntl({
        locale: localeTag(locale),
        messages: messages as Record<string, string>,
        onError: () => {},
      });
      stores.client.configure({
        translate: (id) => intl.formatMessage({ id }),
        // Without a locale cookie the service would fall back to the browser's language, not the edition's.
        language: () => localeTag(locale),
      });
    }
  }, [locale, messages, stores.client]);
  useEffect(() => void session.load(), [session]);
  // The account's shade: the dark sheet's media (set by the service in the page) follows a change of the choice.
  const scheme = session.colorScheme;
  const systemDark = useMediaQuery('(prefers-color-scheme: dark)');
  const shade = scheme === 'dark' || (scheme === 'system' && systemDark) ? 'dark' : 'light';
  useEffect(() => document.getElementById(DARK_SHEET_ID)?.setAttribute('media', darkSheetMedia(scheme)), [scheme]);

  if (!texts) return failed ? <MessagesFailed /> : null;
  return (
    <IntlProvider
      locale={localeTag(texts.locale)}
      messages={messages as Record<string, string>}
      defaultLocale={localeTag('zh_CN')}
    >
      <Suspense fallback={null}>
        <AntdRoot locale={texts.antd} shade={shade}>
          <PageConfigContext.Provider value={config}>
            <RegistryContext.Provider value={registry}>
              <StoresProvider value={stores}>
                <AccessContext.Provider value={session.access}>
                  <ErrorBoundary variant="page" onError={(error) => stores.tracker.error(error)}>
                    <BrowserStateProvider>
                      <Router>
                        <PageViews tracker={stores.tracker} />
                        <Suspense fallback={null}>
                          <Routes>
                            <Route path="/users/settings" element={<SettingsHome registry={registry} />} />
                            <Route
                              path="/users/settings/:sidebarKey/*"
                              element={<SettingsShell registry={registry} />}
                            />
                            <Route path="/users/errors" element={<UsersErrorsPage />} />
                            {pages.map(([route, Page]) => (
                              <Route key={route.path} path={route.path} element={routeElement(route, Page)} />
                            ))}
                            <Route path="*" element={<NotFoundPage />} />
                          </Routes>
                          <Settled />
                        </Suspense>
                      </Router>
                    </BrowserStateProvider>
                  </ErrorBoundary>
                </AccessContext.Provider>
              </StoresProvider>
            </RegistryContext.Provider>
          </PageConfigContext.Provider>
        </AntdRoot>
      </Suspense>
    </IntlProvider>
  );
});
