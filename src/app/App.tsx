import { ConfigProvider } from 'antd';
import { lazy, Suspense, useMemo } from 'react';
import { IntlProvider } from 'react-intl';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router-dom';
import { edition } from '../core/edition';
import { resolveLocale } from '../core/i18n/locale';
import type { Registry } from '../core/plugin';
import coreEn from '../core/messages/en_US.json';
import coreZh from '../core/messages/zh_CN.json';
import shellEn from '../shell/messages/en_US.json';
import shellZh from '../shell/messages/zh_CN.json';

const SettingsShell = lazy(() => import(/* webpackChunkName: "shell-settings" */ '../shell/SettingsShell'));
const NotFoundPage = lazy(() => import(/* webpackChunkName: "shell-not-found" */ '../shell/NotFoundPage'));

/** Props of the root component: the registry of this edition's plugins. */
export interface AppProps {
  registry: Registry;
}

/** Root: locale, theme from the edition's brand colour, and the routes of every plugin. */
export function App({ registry }: AppProps) {
  const locale = resolveLocale(document.cookie, edition.locale.default);
  const messages = useMemo(
    () => ({
      ...(locale === 'zh_CN' ? coreZh : coreEn),
      ...(locale === 'zh_CN' ? shellZh : shellEn),
      ...registry.messages(locale),
    }),
    [locale, registry],
  );
  return (
    <IntlProvider locale={locale === 'zh_CN' ? 'zh-CN' : 'en-US'} messages={messages} defaultLocale="zh-CN">
      <ConfigProvider theme={{ token: { colorPrimary: edition.brand.color } }}>
        <BrowserRouter>
          <Suspense fallback={null}>
            <Routes>
              <Route path="/users/settings" element={<Navigate to="/users/settings/profile" replace />} />
              <Route path="/users/settings/:sidebarKey/*" element={<SettingsShell registry={registry} />} />
              <Route path="*" element={<NotFoundPage />} />
            </Routes>
          </Suspense>
        </BrowserRouter>
      </ConfigProvider>
    </IntlProvider>
  );
}
