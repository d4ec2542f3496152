import { ConfigProvider } from 'antd';
import { useMemo, type ReactNode } from 'react';
import { IntlProvider, useIntl } from 'react-intl';
import en_US from '../pages/messages/en_US.json';
import zh_CN from '../pages/messages/zh_CN.json';

/** Secondary, description and error text dark enough for WCAG AA contrast (antd's defaults fall short). */
const READABLE_TEXT = {
  colorError: '#cf1322',
  colorTextSecondary: 'rgba(0, 0, 0, 0.65)',
  colorTextTertiary: 'rgba(0, 0, 0, 0.62)',
  colorTextDescription: 'rgba(0, 0, 0, 0.62)',
};

/**
 * Adds the page's own messages (loaded with the page chunk, not the initial bundle, which only
 * carries the sidebar title) and readable secondary text colours around the page.
 */
export function PageScope({ children }: { children: ReactNode }) {
  const intl = useIntl();
  const messages = useMemo(
    () => ({ ...intl.messages, ...(intl.locale.startsWith('zh') ? zh_CN : en_US) }),
    [intl.messages, intl.locale],
  );
  return (
    <IntlProvider locale={intl.locale} defaultLocale={intl.defaultLocale} messages={messages}>
      <ConfigProvider theme={{ token: READABLE_TEXT }}>{children}</ConfigProvider>
    </IntlProvider>
  );
}
