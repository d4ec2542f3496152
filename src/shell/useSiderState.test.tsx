import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useSiderState } from './useSiderState';
import { setViewport } from '../../tests/kit/web';

describe('useSiderState', () => {
  // Unmounted first: a mounted hook would take the resize in a deferred render after the test (useMediaQuery).
  afterEach(() => {
    cleanup();
    setViewport(1024);
  });

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
