import { useCallback, useEffect, useState } from 'react';
import { useMediaQuery } from '../core/ui/responsive';

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

/** Below this width the side bar closes by itself (the media query of `SIDER_AUTO_CLOSE_WIDTH`). */
export const SIDER_AUTO_CLOSE_QUERY = `(max-width: ${SIDER_AUTO_CLOSE_WIDTH - 0.02}px)`;

/**
 * Open/closed and width of the side bar: closed below 1280 px unless the user opened it, toggled by the user (a
 * choice kept until the window crosses 1280 px), resizable by drag. `auto` is true while no choice was made: the side
 * bar then follows the window, which CSS does in a page the service rendered (src/app/global.css), before any script.
 */
export function useSiderState() {
  const below = useMediaQuery(SIDER_AUTO_CLOSE_QUERY);
  const [choice, setChoice] = useState<boolean | null>(null);
  const [width, setWidth] = useState(SIDER_DEFAULT_WIDTH);
  // Crossing the breakpoint drops the choice: the side bar closes below it and opens above it again.
  useEffect(() => setChoice(null), [below]);
  const collapsed = choice ?? below;

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

  return { collapsed, auto: choice === null, toggle: () => setChoice(!collapsed), width, setWidth, startDrag };
}
