import { ConfigProvider } from 'antd';
import type { Locale as AntdLocale } from 'antd/es/locale';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { observer } from 'mobx-react-lite';
import { lazy, Suspense, useEffect, useMemo, useState, type ComponentType } from 'react';
import { IntlProvider } from 'react-intl';
import { BrowserRouter, Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { Authorized } from '../core/access';
import { edition } from '../core/edition';
import coreEn from '../core/messages/en_US.json';
import coreZh from '../core/messages/zh_CN.json';
import type { PluginRoute, Registry } from '../core/plugin';
import { StoresProvider, type RootStore } from '../core/stores/root';
import { ErrorBoundary } from '../shell/errors/ErrorBoundary';
import shellEn from '../shell/messages/en_US.json';
import shellZh from '../shell/messages/zh_CN.json';

const SettingsShell = lazy(() => import(/* webpackChunkName: "shell-settings" */ '../shell/SettingsShell'));
const NotFoundPage = lazy(() => import(/* webpackChunkName: "shell-not-found" */ '../shell/NotFoundPage'));
const FramedPage = lazy(() => import(/* webpackChunkName: "shell-frame" */ '../shell/FramedPage'));
const UsersErrorsPage = lazy(() => import(/* webpackChunkName: "shell-errors" */ '../shell/ErrorRoutes'));
const LoginErrorsPage = lazy(() =>
  import(/* webpackChunkName: "shell-errors" */ '../shell/ErrorRoutes').then((m) => ({ default: m.LoginErrorsPage })),
);

/** antd's texts (pagination, date picker…) in the app locale, fetched on demand to keep both out of the initial bundle. */
function useAntdLocale(locale: 'zh_CN' | 'en_US'): AntdLocale | undefined {
  const [loaded, setLoaded] = useState<AntdLocale>();
  useEffect(() => {
    let live = true;
    const load =
      locale === 'zh_CN'
        ? import(/* webpackChunkName: "antd-locale-zh" */ 'antd/es/locale/zh_CN')
        : import(/* webpackChunkName: "antd-locale-en" */ 'antd/es/locale/en_US');
    load.then((m) => live && setLoaded(m.default)).catch(() => {});
    return () => {
      live = false;
    };
  }, [locale]);
  return loaded;
}

/** Sends a page view for every route change (the tracker waits 500 ms for the page to settle). */
function PageViews({ stores }: { stores: RootStore }) {
  const { pathname } = useLocation();
  useEffect(() => stores.tracker.pageView(pathname), [pathname, stores.tracker]);
  return null;
}

/** Props of the root component. */
export interface AppProps {
  registry: Registry;
  stores: RootStore;
  /** CSP nonce for antd's injected styles (from the page configuration). */
  nonce?: string;
}

/** A plugin route as an element: lazy page, permission check, and the product frame unless `bare`. */
function routeElement(route: PluginRoute, Page: ComponentType) {
  const page = (
    <Authorized auth={route.auth}>
      <Page />
    </Authorized>
  );
  return route.frame === 'bare' ? page : <FramedPage>{page}</FramedPage>;
}

/** Root: stores, locale, theme from the brand colour, and every route of the product. */
export const App = observer(function App({ registry, stores, nonce }: AppProps) {
  const { session } = stores;
  const locale = session.locale;
  const messages = useMemo(
    () => ({
      ...(locale === 'zh_CN' ? coreZh : coreEn),
      ...(locale === 'zh_CN' ? shellZh : shellEn),
      ...registry.messages(locale),
    }),
    [locale, registry],
  );
  const antdLocale = useAntdLocale(locale);
  const pages = useMemo(() => registry.routes.map((r) => [r, lazy(r.load)] as const), [registry]);
  useEffect(() => {
    dayjs.locale(locale === 'zh_CN' ? 'zh-cn' : 'en');
    stores.client.configure({ translate: (id) => messages[id as keyof typeof messages] ?? id });
  }, [locale, messages, stores.client]);
  useEffect(() => {
    void session.load();
  }, [session]);

  return (
    <IntlProvider locale={locale === 'zh_CN' ? 'zh-CN' : 'en-US'} messages={messages} defaultLocale="zh-CN">
      <ConfigProvider
        locale={antdLocale}
        csp={nonce ? { nonce } : undefined}
        theme={{
          token: { colorPrimary: edition.brand.color, colorLink: edition.brand.color, colorInfo: edition.brand.color },
        }}
      >
        <StoresProvider value={stores}>
          <ErrorBoundary variant="page" onError={(error) => stores.tracker.error(error)}>
            <BrowserRouter>
              <PageViews stores={stores} />
              <Suspense fallback={null}>
                <Routes>
                  <Route path="/users/settings" element={<Navigate to="/users/settings/profile" replace />} />
                  <Route path="/users/settings/:sidebarKey/*" element={<SettingsShell registry={registry} />} />
                  <Route path="/users/switch" element={<Navigate to="/users/switch/organization" replace />} />
                  <Route path="/users/errors" element={<UsersErrorsPage />} />
                  <Route path="/login/errors" element={<LoginErrorsPage />} />
                  {pages.map(([route, Page]) => (
                    <Route key={route.path} path={route.path} element={routeElement(route, Page)} />
                  ))}
                  <Route path="*" element={<NotFoundPage />} />
                </Routes>
              </Suspense>
            </BrowserRouter>
          </ErrorBoundary>
        </StoresProvider>
      </ConfigProvider>
    </IntlProvider>
  );
});
