import { ConfigProvider } from 'antd';
import type { Locale as AntdLocale } from 'antd/es/locale';
import { useState, type ReactNode } from 'react';
import { edition } from '../core/edition';
import { setDynamicStyleNonce } from './style-nonce';
import { runtimeTheme, type PrecomputedMapTokens } from './theme';

// This module is the app's door to antd and is loaded lazily (App.tsx), alongside the page's own code: antd's
// ConfigProvider and what it brings (its theme, css-in-js runtime, motion and popup base, about 44 KB gzip) are
// needed to render a page, not to start the app, so the first scripts do not carry them.

declare const __ANTD_MAP_TOKENS__: PrecomputedMapTokens[] | undefined;

/**
 * antd's theme in this bundle's brand colour; component styles come from the edition's stylesheet, none at run time,
 * and its map tokens from the build (rsbuild.config.ts; absent under test).
 */
export const APP_THEME = runtimeTheme(
  edition.brand.color,
  typeof __ANTD_MAP_TOKENS__ === 'undefined' ? undefined : __ANTD_MAP_TOKENS__,
);

/**
 * Readies antd before the first render: the page nonce for the few styles its helpers still add (a modal's scroll
 * lock, a table's scrollbar measure), and the app's theme and nonce for what antd renders outside the React tree
 * (`message.success()`, the ≥500 notification), which would otherwise generate default-theme styles without one.
 */
export function configureAntd(nonce: string | undefined): void {
  setDynamicStyleNonce(nonce);
  const csp = nonce ? { nonce } : undefined;
  ConfigProvider.config({
    holderRender: (children: ReactNode) => (
      <ConfigProvider theme={APP_THEME} csp={csp}>
        {children}
      </ConfigProvider>
    ),
  });
}

/** Props of the antd root. */
export interface AntdRootProps {
  /** CSP nonce for the styles antd still adds (from the page configuration). */
  nonce?: string;
  /** antd's own texts in the app locale; undefined while they load (antd's English defaults meanwhile). */
  locale?: AntdLocale;
  children: ReactNode;
}

/** Everything antd renders sits under this: the brand theme, the nonce, antd's texts; configured once, first. */
export default function AntdRoot({ nonce, locale, children }: AntdRootProps) {
  // Before any child renders (and before any static message or notification can be shown).
  useState(() => configureAntd(nonce));
  return (
    <ConfigProvider
      locale={locale}
      csp={nonce ? { nonce } : undefined}
      // The brand colour and contrast fixes (./theme.ts); the styles come from the edition's built stylesheet.
      theme={APP_THEME}
    >
      {children}
    </ConfigProvider>
  );
}
