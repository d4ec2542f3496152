import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useSiderState } from './useSiderState';

/** happy-dom's window: its matchMedia and innerWidth follow the viewport it is given. */
interface HappyWindow {
  happyDOM: { setViewport(viewport: { width: number; height: number }): void };
}
const setViewport = (width: number) => (window as unknown as HappyWindow).happyDOM.setViewport({ width, height: 800 });

describe('useSiderState', () => {
  afterEach(() => setViewport(1024));

  it('starts closed below 1280 px and open above, then follows the window across the breakpoint', () => {
    setViewport(400);
    expect(renderHook(() => useSiderState()).result.current.collapsed).toBe(true);
    setViewport(1400);
    const hook = renderHook(() => useSiderState());
    expect(hook.result.current).toMatchObject({ collapsed: false, auto: true });
    act(() => setViewport(800));
    expect(hook.result.current.collapsed).toBe(true);
  });

  it("keeps the user's choice until the window crosses 1280 px", () => {
    setViewport(1100);
    const hook = renderHook(() => useSiderState());
    expect(hook.result.current.collapsed).toBe(true);
    act(() => hook.result.current.toggle());
    expect(hook.result.current).toMatchObject({ collapsed: false, auto: false });
    act(() => setViewport(1000));
    expect(hook.result.current.collapsed).toBe(false);
    act(() => setViewport(1300));
    expect(hook.result.current).toMatchObject({ collapsed: false, auto: true });
    act(() => setViewport(1200));
    expect(hook.result.current.collapsed).toBe(true);
  });
});
