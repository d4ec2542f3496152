import { useCallback, useEffect, useRef, useState } from 'react';

/** Below this window width the side bar closes by itself. */
export const SIDER_AUTO_CLOSE_WIDTH = 1280;
/** The side bar cannot be dragged narrower than this. */
export const SIDER_MIN_WIDTH = 200;
/** Nor wider than this, so content keeps room. */
export const SIDER_MAX_WIDTH = 480;
/** Width of a freshly opened side bar. */
export const SIDER_DEFAULT_WIDTH = 220;

/** Clamps a dragged width to the allowed range. */
export function clampSiderWidth(width: number): number {
  return Math.min(SIDER_MAX_WIDTH, Math.max(SIDER_MIN_WIDTH, Math.round(width)));
}

/** Open/closed and width of the side bar: toggled by the user, closed below 1280 px, resizable by drag. */
export function useSiderState() {
  const narrow = () => typeof window !== 'undefined' && window.innerWidth < SIDER_AUTO_CLOSE_WIDTH;
  const [collapsed, setCollapsed] = useState(narrow);
  const [width, setWidth] = useState(SIDER_DEFAULT_WIDTH);
  const wasNarrow = useRef(narrow());

  useEffect(() => {
    const onResize = () => {
      const now = narrow();
      if (now !== wasNarrow.current) setCollapsed(now);
      wasNarrow.current = now;
    };
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);

  const startDrag = useCallback(
    (startX: number) => {
      const startWidth = width;
      const move = (e: PointerEvent) => setWidth(clampSiderWidth(startWidth + e.clientX - startX));
      const up = () => {
        window.removeEventListener('pointermove', move);
        window.removeEventListener('pointerup', up);
      };
      window.addEventListener('pointermove', move);
      window.addEventListener('pointerup', up);
    },
    [width],
  );

  return { collapsed, toggle: () => setCollapsed((c) => !c), width, setWidth, startDrag };
}
