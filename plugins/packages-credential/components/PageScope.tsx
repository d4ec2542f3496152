import { ConfigProvider } from 'antd';
import { useMemo, type ReactNode } from 'react';
import { IntlProvider, useIntl } from 'react-intl';
import { edition } from '../../../src/core/edition';
import en_US from '../pages/messages/en_US.json';
import zh_CN from '../pages/messages/zh_CN.json';

/** Relative luminance of an sRGB colour (WCAG 2). */
function luminance(rgb: number[]): number {
  const [r, g, b] = rgb.map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The brand colour, darkened just enough for 4.5:1 against white (links, white text on buttons). */
function accessibleBrand(hex: string): string {
  let rgb = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  for (let i = 0; i < 30 && 1.05 / (luminance(rgb) + 0.05) < 4.5; i++) rgb = rgb.map((v) => Math.floor(v * 0.95));
  return `#${rgb.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
}

const BRAND = accessibleBrand(edition.brand.color ?? '#006AD4');

/** Brand, secondary, description and error colours with WCAG AA contrast (antd's defaults and some brands fall short). */
const READABLE_TEXT = {
  colorPrimary: BRAND,
  colorLink: BRAND,
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
