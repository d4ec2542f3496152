import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { PageConfigContext, type PageConfig } from '../core/page-config';
import { useSiderState } from './useSiderState';

const base: PageConfig = { appId: 'a', orgId: '', env: 'vpc', host: '', organizationId: '' };
const width0 = window.innerWidth;
const setWidth = (w: number) => Object.defineProperty(window, 'innerWidth', { configurable: true, value: w });

/** The side bar's state in a page whose configuration carries (or not) the service's narrow-window guess. */
function siderIn(config: PageConfig) {
  const firstRenders: boolean[] = [];
  const wrapper = ({ children }: { children: ReactNode }) => (
    <PageConfigContext.Provider value={config}>{children}</PageConfigContext.Provider>
  );
  const hook = renderHook(
    () => {
      const s = useSiderState();
      firstRenders.push(s.collapsed);
      return s;
    },
    { wrapper },
  );
  return { first: firstRenders[0], now: () => hook.result.current.collapsed };
}

describe('useSiderState on a server-rendered page', () => {
  afterEach(() => setWidth(width0));

  it('renders first as the service guessed, then follows the window when the guess was wrong', () => {
    setWidth(1400);
    const wide = siderIn({ ...base, narrow: true });
    expect(wide.first).toBe(true);
    expect(wide.now()).toBe(false);
    setWidth(400);
    const narrow = siderIn({ ...base, narrow: false });
    expect(narrow.first).toBe(false);
    expect(narrow.now()).toBe(true);
  });

  it('keeps a right guess, and follows the window from the start without one', () => {
    setWidth(400);
    const right = siderIn({ ...base, narrow: true });
    expect([right.first, right.now()]).toEqual([true, true]);
    const none = siderIn(base);
    expect([none.first, none.now()]).toEqual([true, true]);
    setWidth(1400);
    expect(siderIn(base).now()).toBe(false);
  });
});
