import { ConfigProvider } from 'antd';
import type { ReactNode } from 'react';
import { edition } from '../core/edition';
import { setDynamicStyleNonce } from './style-nonce';
import { runtimeTheme } from './theme';

/** antd's theme in this bundle's brand colour; component styles come from the edition's stylesheet, none at run time. */
export const APP_THEME = runtimeTheme(edition.brand.color);

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
