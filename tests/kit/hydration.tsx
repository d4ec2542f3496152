import { act } from '@testing-library/react';
import { Suspense, type ReactNode } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { prerender } from 'react-dom/static';
import { IntlProvider } from 'react-intl';
import { MemoryRouter } from 'react-router-dom';
import { onTestFinished, vi } from 'vitest';
import { localeTag } from '../../schemas/locale';
import type { Locale } from '../../src/core/edition';
import { StoresProvider, type RootStore } from '../../src/core/stores/root';
import { BrowserStateProvider } from '../../src/core/ui/BrowserState';
import { messagesOf } from './web';

/** A section as a painted page holds it: its texts, its root store, its path. */
export interface PaintedPage {
  /** The section's content, e.g. `<TokensPanel />`. */
  ui: ReactNode;
  /** The path the page was opened at. */
  route: string;
  locale?: Locale;
}

/**
 * `hydrateRoot` in a test: inside `act`, and unmounted (its container out of the page) when the test ends. A hydrated
 * root that stays mounted keeps React's deferred renders (`useDeferredValue`) pending past the test file, when the
 * test window is gone.
 */
export async function hydrateInTest(
  container: Element,
  ui: ReactNode,
  options?: Parameters<typeof hydrateRoot>[2],
): Promise<Root> {
  let root: Root | undefined;
  await act(async () => {
    root = hydrateRoot(container, ui, options);
  });
  onTestFinished(async () => {
    await act(() => root?.unmount());
    container.remove();
  });
  return root!;
}

/** What a page the service rendered looked like, and how the browser took it over. */
export interface Hydrated {
  /** The HTML the service rendered. */
  html: string;
  /** The container the browser hydrated (in the document). */
  container: HTMLElement;
  /** What React reported while hydrating: recoverable errors (a mismatch) and console errors (a differing attribute). */
  mismatches: string[];
}

/**
 * React's development warning when two renderers provide one context object in a process: the service's and the
 * browser's here (two processes in the product), not a mismatch.
 */
const TWO_RENDERERS = 'Detected multiple renderers concurrently rendering the same context provider';

const tree = ({ ui, route, locale = 'en_US' }: PaintedPage, stores: RootStore) => (
  <IntlProvider locale={localeTag(locale)} messages={messagesOf(locale)} defaultLocale={localeTag('zh_CN')}>
    <StoresProvider value={stores}>
      <BrowserStateProvider>
        <MemoryRouter initialEntries={[route]}>
          <Suspense fallback={null}>{ui}</Suspense>
        </MemoryRouter>
      </BrowserStateProvider>
    </StoresProvider>
  </IntlProvider>
);

/**
 * Renders a page as the service paints it (React's prerender: lazy parts waited for, no effect run) on the service's
 * own root store, then hydrates that HTML in this window with the browser's root store (each built from the page's
 * data, as src/app/server.tsx and start.tsx build theirs): whatever the browser's first render reads that the service
 * could not know (the window, local storage, the clock) shows as a mismatch. `beforeHydrate` turns this window into
 * the browser's (its width, its storage) after the service's render.
 */
export async function paintAndHydrate(
  page: PaintedPage,
  stores: { service: RootStore; browser: RootStore },
  beforeHydrate?: () => void,
): Promise<Hydrated> {
  const mismatches: string[] = [];
  const serviceErrors: string[] = [];
  let phase: 'service' | 'hydrating' | 'after' = 'service';
  // Until the test ends: the browser's later renders meet contexts the service's render provided last.
  const original = console.error;
  const logged = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    const text = args.map(String).join(' ');
    if (text.startsWith(TWO_RENDERERS)) return;
    if (phase === 'hydrating') mismatches.push(text);
    else if (phase === 'service') serviceErrors.push(text);
    else original(...args);
  });
  let root: Root | undefined;
  onTestFinished(() => {
    act(() => root?.unmount());
    logged.mockRestore();
  });
  const { prelude } = await prerender(tree(page, stores.service));
  const html = await new Response(prelude).text();
  if (serviceErrors.length) throw new Error(`the service's render logged errors:\n${serviceErrors.join('\n')}`);
  // The service and the browser are two processes; here they share React's context objects, and the server renderer
  // leaves the last values it provided in them when it is done (its next render switches them back): an empty render
  // does that, so the browser's render starts from none.
  await prerender(<></>);
  beforeHydrate?.();
  const container = document.createElement('div');
  container.innerHTML = html;
  document.body.appendChild(container);
  phase = 'hydrating';
  await act(async () => {
    root = hydrateRoot(container, tree(page, stores.browser), {
      onRecoverableError: (error) => void mismatches.push(String(error)),
    });
  });
  phase = 'after';
  return { html, container, mismatches };
}
