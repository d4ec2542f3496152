import { ConfigProvider, type ConfigProviderProps } from 'antd';
import type { ReactNode } from 'react';
import { edition } from '../core/edition';
import { editionTheme, type Shade } from './theme';

/** antd's own texts of one language (what ConfigProvider's `locale` takes). */
export type AntdLocale = NonNullable<ConfigProviderProps['locale']>;

// The app's door to antd, loaded lazily (App.tsx) alongside the page's own code: antd's ConfigProvider and what it
// brings are needed to render a page, not to start the app, so the first scripts do not carry them.

/** antd's theme in this bundle's brand colour, in each shade; its component styles come from the edition's sheets. */
const APP_THEMES = { light: editionTheme(edition.brand.color), dark: editionTheme(edition.brand.color, 'dark') };

/**
 * Gives what antd renders outside the React tree (`message.success()`, the ≥500 notification) the app's theme, which
 * would otherwise render in antd's default one.
 */
export function configureAntd(): void {
  ConfigProvider.config({
    holderRender: (children: ReactNode) => <ConfigProvider theme={APP_THEMES.light}>{children}</ConfigProvider>,
  });
}

/**
 * Everything antd renders sits under this: the brand theme in the shade the page shows (its colours come from the
 * edition's sheets; the theme is for colours read in code), and antd's own texts in the app locale (undefined while
 * they load: antd's English defaults meanwhile).
 */
export default function AntdRoot(props: { locale?: AntdLocale; shade: Shade; children: ReactNode }) {
  const { locale, shade, children } = props;
  return (
    <ConfigProvider locale={locale} theme={APP_THEMES[shade]}>
      {children}
    </ConfigProvider>
  );
}
