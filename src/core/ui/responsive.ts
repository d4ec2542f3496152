import { useCallback, useDeferredValue, useSyncExternalStore } from 'react';

/**
 * Below this width (antd's `lg` breakpoint less a fraction) the side bar is a drawer over the content and the lists
 * are stacked cards; src/app/global.css uses the same query, so what CSS decides and what React renders agree.
 */
export const NARROW_LAYOUT_QUERY = '(max-width: 991.98px)';

/** Calls `onChange` when the window's answer to a media query may have changed; returns the unsubscription. */
export function subscribeToMediaQuery(query: string, onChange: () => void): () => void {
  const list = window.matchMedia(query);
  list.addEventListener('change', onChange);
  // Also on resize (a re-render only when the answer changed): the DOM of the unit tests sends no 'change'.
  window.addEventListener('resize', onChange);
  return () => {
    list.removeEventListener('change', onChange);
    window.removeEventListener('resize', onChange);
  };
}

/**
 * Follows a media query; false where there is no window (the service's render), so server and first paint agree. The
 * answer is deferred (`useDeferredValue`): a hydrated page switches in slices. The layout breakpoint is read through
 * `useNarrowLayout` (BrowserState.tsx), one answer for the whole tree.
 */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback((onChange: () => void) => subscribeToMediaQuery(query, onChange), [query]);
  return useDeferredValue(
    useSyncExternalStore(
      subscribe,
      () => window.matchMedia(query).matches,
      () => false,
    ),
  );
}
