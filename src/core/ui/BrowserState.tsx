import { createContext, useContext, useDeferredValue, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { NARROW_LAYOUT_QUERY, subscribeToMediaQuery } from './responsive';

/** What only the browser knows: whether the page is past hydration, and whether the window is narrow. */
interface BrowserState {
  inBrowser: boolean;
  narrow: boolean;
}

/** Without the provider (a component rendered alone): a page the browser renders itself, on a wide window. */
const BrowserStateContext = createContext<BrowserState>({ inBrowser: true, narrow: false });

const noSubscription = () => () => {};
const subscribeToNarrow = (onChange: () => void) => subscribeToMediaQuery(NARROW_LAYOUT_QUERY, onChange);

/**
 * Answers `useInBrowser` and `useNarrowLayout` for the whole tree (the app puts it above its routes). While React
 * hydrates a page the service rendered, both are false, as on the service (useSyncExternalStore's server snapshot:
 * React's own way to render a value only the browser knows, without a mismatch); then the browser's values.
 *
 * One provider rather than a store read in each component: after hydration React re-renders each component whose
 * snapshot differs from the server's at once, in one task. Here that is this provider alone, whose children are the
 * same elements; the new values reach the components that read them in a deferred render (`useDeferredValue`),
 * which React renders in slices.
 */
export function BrowserStateProvider({ children }: { children: ReactNode }) {
  const inBrowser = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const narrow = useSyncExternalStore(
    subscribeToNarrow,
    () => window.matchMedia(NARROW_LAYOUT_QUERY).matches,
    () => false,
  );
  const state = useMemo(() => ({ inBrowser, narrow }), [inBrowser, narrow]);
  return <BrowserStateContext.Provider value={useDeferredValue(state)}>{children}</BrowserStateContext.Provider>;
}

/**
 * False while React hydrates a page the service rendered, true in the browser after that (and at once in a page the
 * browser renders itself).
 */
export function useInBrowser(): boolean {
  return useContext(BrowserStateContext).inBrowser;
}

/**
 * Whether the window is below the layout breakpoint (side bar as a drawer, lists as stacked cards); false on the
 * service and while React hydrates what it rendered.
 */
export function useNarrowLayout(): boolean {
  return useContext(BrowserStateContext).narrow;
}
