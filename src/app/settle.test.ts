import { afterEach, describe, expect, it, vi } from 'vitest';
import { SETTLE_MS, SETTLING_ATTR, settleAfterCommit } from './settle';

describe('settling after the first commit', () => {
  afterEach(() => {
    vi.useRealTimers();
    document.body.removeAttribute(SETTLING_ATTR);
  });

  it('keeps transitions off until shortly after the first page committed, then turns them on for good', () => {
    vi.useFakeTimers();
    document.body.setAttribute(SETTLING_ATTR, '');
    settleAfterCommit(document);
    vi.advanceTimersByTime(SETTLE_MS - 1);
    expect(document.body.hasAttribute(SETTLING_ATTR)).toBe(true);
    vi.advanceTimersByTime(1);
    expect(document.body.hasAttribute(SETTLING_ATTR)).toBe(false);
    // A later commit (another page) schedules nothing.
    settleAfterCommit(document);
    expect(vi.getTimerCount()).toBe(0);
  });
});
