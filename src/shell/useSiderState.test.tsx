import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useSiderState } from './useSiderState';

const width0 = window.innerWidth;
const setWidth = (w: number) => Object.defineProperty(window, 'innerWidth', { configurable: true, value: w });

describe('useSiderState', () => {
  afterEach(() => setWidth(width0));

  it('starts closed below 1280 px and open above, then follows the window across the breakpoint', () => {
    setWidth(400);
    expect(renderHook(() => useSiderState()).result.current.collapsed).toBe(true);
    setWidth(1400);
    const hook = renderHook(() => useSiderState());
    expect(hook.result.current.collapsed).toBe(false);
    setWidth(800);
    act(() => void window.dispatchEvent(new Event('resize')));
    expect(hook.result.current.collapsed).toBe(true);
  });
});
