import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { paintAndHydrate } from '../../../tests/kit/hydration';
import { rootStoreWithPageData, setViewport } from '../../../tests/kit/web';
import type { AccessToken } from '../contract';
import { DEFAULT_PAGE_SIZE, PAGE_SIZE_KEY } from '../store';
import { testToken, tokenBackend } from '../test-backend';
import { TokensPanel } from './TokensPanel';

// The section comes painted (plugins/access-tokens/index.ts `firstScreen`): the service renders it from the page's
// data, the browser hydrates that. Whatever the browser's first render reads that the service cannot know (the
// window's width, its time zone, its clock, the page size it remembers) must not change that render.

const DAY = 24 * 3600 * 1000;
const tokens: AccessToken[] = [
  testToken('soon', { name: 'expires in two days', expires_at: new Date(Date.now() + 2 * DAY).toISOString() }),
  testToken('old', { name: 'expired one', expired: true, expires_at: '2020-01-01T00:00:00.000Z' }),
  ...Array.from({ length: 23 }, (_, i) =>
    testToken(`t${i}`, { name: `token ${i}`, created_at: '2026-03-01T23:30:00.000Z', last_used_at: null }),
  ),
];
const brought = {
  'access-tokens': {
    page: {
      access_tokens: tokens.slice(0, DEFAULT_PAGE_SIZE),
      pages: { current_page: 1, page_size: DEFAULT_PAGE_SIZE, total_size: tokens.length },
    },
  },
};

/** The page painted by a service in UTC, then hydrated by a browser at `width` px in Kolkata that remembers 10 rows. */
async function painted(width: number, route = '/users/settings/personalAccessToken') {
  const zone = process.env.TZ;
  process.env.TZ = 'UTC';
  const service = rootStoreWithPageData({ accessTokens: () => import('../store') }, tokenBackend({ tokens }), brought);
  await service.store('accessTokens');
  const backend = tokenBackend({ tokens });
  const browser = rootStoreWithPageData({ accessTokens: () => import('../store') }, backend, brought);
  try {
    const page = await paintAndHydrate({ ui: <TokensPanel />, route }, { service, browser }, () => {
      process.env.TZ = 'Asia/Kolkata';
      localStorage.setItem(PAGE_SIZE_KEY, '10');
      setViewport(width);
    });
    return { ...page, backend };
  } finally {
    process.env.TZ = zone;
  }
}

describe('the token section, painted by the service', () => {
  afterEach(() => {
    cleanup();
    document.body.innerHTML = '';
    localStorage.clear();
    setViewport(1024);
  });

  for (const width of [375, 1280]) {
    it(`holds title, description and list, and hydrates at ${width} px without a mismatch`, async () => {
      const { html, container, mismatches, backend } = await painted(width);
      expect(html).toContain('Personal access tokens');
      expect(html).toContain('A personal access token lets scripts and tools call the');
      expect(html).toContain('expires in two days');
      // The service does not know the browser's clock: no "about to expire" before the app has the page.
      expect(html).not.toContain('About to expire');
      expect(mismatches).toEqual([]);
      // Then the browser's clock and remembered page size (the brought page holds its first 10 tokens: no call).
      await waitFor(() => expect(within(container).getAllByText('About to expire').length).toBeGreaterThan(0));
      await waitFor(() => expect(within(container).getAllByTestId('token-name')).toHaveLength(10));
      expect(backend.calls).toEqual([]);
      expect(container.querySelector('table') === null).toBe(width < 992);
    });
  }

  it('opens the create drawer at /create once hydrated, not in the painted page', async () => {
    const { html, mismatches } = await painted(1280, '/users/settings/personalAccessToken/create');
    expect(html).not.toContain('Create personal access token');
    expect(mismatches).toEqual([]);
    expect(await screen.findByText('Create personal access token', undefined, { timeout: 10_000 })).toBeTruthy();
  });
});
