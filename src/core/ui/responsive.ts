import { useCallback, useSyncExternalStore } from 'react';

/**
 * Below this width (antd's `lg` breakpoint less a fraction) the side bar is a drawer over the content and the lists
 * are stacked cards; src/app/global.css uses the same query, so what CSS decides and what React renders agree.
 */
export const NARROW_LAYOUT_QUERY = '(max-width: 991.98px)';

/** Follows a media query; false where there is no window (the service's render), so server and first paint agree. */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      // Also on resize (a re-render only when the answer changed): the DOM of the unit tests sends no 'change'.
      window.addEventListener('resize', onChange);
      return () => {
        list.removeEventListener('change', onChange);
        window.removeEventListener('resize', onChange);
      };
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** Whether the window is below the layout breakpoint (side bar as a drawer, lists as stacked cards). */
export function useNarrowLayout(): boolean {
  return useMediaQuery(NARROW_LAYOUT_QUERY);
}
