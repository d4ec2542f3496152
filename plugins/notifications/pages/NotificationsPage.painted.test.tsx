import { cleanup, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { paintAndHydrate } from '../../../tests/kit/hydration';
import { NO_TRACKER, TEST_USER } from '../../../tests/kit/web';
import type { Locale } from '../../../src/core/edition';
import { createRootStore, type RootStore } from '../../../src/core/stores/root';
import { INBOX_URL } from '../api';
import InboxBell from '../components/InboxBell';
import type { InboxMessage } from '../contract';
import { inboxBackend, testMessage, type InboxBackend } from '../test-backend';
import { InboxView } from './NotificationsPage';

// The message center comes painted (plugins/notifications/index.ts `firstScreen`): the service renders it from the
// page's data (counts and first page), the browser hydrates that. Its times read the browser's clock and time zone,
// which the service knows neither of: they must not be in the paint, and must not change the browser's first render.

/** Three minutes after the newest message: the browser's clock. */
const BROWSER_NOW = Date.parse('2026-11-22T10:03:00.000Z');
/** The service's clock: an hour and a half later (the app arrived late, or the clocks differ). */
const SERVICE_NOW = BROWSER_NOW + 90 * 60_000;

const INBOX: InboxMessage[] = [
  testMessage('tok', { title: 'Personal access token created', sensitive: true }),
  testMessage('pkg', { app: 'packages', title: 'Artifact repository password reset', read: true }),
  testMessage('old', { title: 'Avatar changed', read: true, created_at: '2026-11-20T08:00:00.000Z' }),
];
const brought = {
  notifications: {
    counts: { unread: 1, total: 3, apps: [] },
    page: { messages: INBOX, pages: { next_token: 'next-1' } },
  },
};

/** A root store as a page with this data builds it (the service's and the browser's are two of them). */
function storesOf(backend: InboxBackend, locale: Locale): RootStore {
  return createRootStore(
    {
      inbox: () => import('../store'),
      inboxCounts: () => import('../store').then((m) => ({ default: m.createInboxCountsStore })),
    },
    backend.client,
    locale,
    () => NO_TRACKER,
    { bootstrap: { locale, me: TEST_USER, plugins: brought } },
  );
}

/** The bell and the page, painted by a service in UTC at its clock, hydrated in Shanghai at the browser's. */
async function painted(locale: Locale) {
  let now = SERVICE_NOW;
  const zone = process.env.TZ;
  process.env.TZ = 'UTC';
  const service = storesOf(inboxBackend(INBOX), locale);
  await Promise.all([service.store('inbox'), service.store('inboxCounts')]);
  const backend = inboxBackend(INBOX);
  const browser = storesOf(backend, locale);
  await Promise.all([browser.store('inbox'), browser.store('inboxCounts')]);
  try {
    const page = await paintAndHydrate(
      {
        ui: (
          <>
            <InboxBell />
            <InboxView clock={() => now} />
          </>
        ),
        route: '/users/notifications',
        locale,
      },
      { service, browser },
      () => {
        process.env.TZ = 'Asia/Shanghai';
        now = BROWSER_NOW;
      },
    );
    return { ...page, backend };
  } finally {
    process.env.TZ = zone;
  }
}

const time = (container: HTMLElement, id: string) =>
  within(container.querySelector(`[data-message-id="${id}"]`) as HTMLElement).getByTestId('inbox-message-time');

describe('the message center, painted by the service', () => {
  afterEach(() => {
    cleanup();
    document.body.innerHTML = '';
  });

  it('holds title, description, counts and the first page, and hydrates without a mismatch', async () => {
    const { html, container, mismatches, backend } = await painted('en_US');
    expect(html).toContain('Message center');
    expect(html).toContain('Security events of your account and notices of your organization.');
    expect(html).toContain('All (3)');
    expect(html).toContain('Unread (1)');
    expect(html).toContain('Personal access token created');
    // The service's clock and zone are not the browser's: no time as the person reads it, its place kept.
    expect(html).not.toMatch(/ago|Today|Yesterday/);
    expect(html).toContain('2026-11-22 10:00');
    expect(mismatches).toEqual([]);
    // Then the browser's: relative, by its clock; older ones in its zone.
    await waitFor(() => expect(time(container, 'tok').textContent).toBe('3 minutes ago'));
    expect(time(container, 'old').textContent).toBe('2026-11-20 16:00');
    expect(time(container, 'tok').style.visibility).toBe('');
    expect(within(container).getByTestId('inbox-bell').getAttribute('aria-label')).toBe('Messages, 1 unread');
    // What the page brought is the first load: no list or count call.
    expect(backend.callsTo(`POST ${INBOX_URL}/messages:list`)).toEqual([]);
    expect(backend.callsTo(`POST ${INBOX_URL}/messages/unread:countGroupByApp`)).toEqual([]);
  });

  it('hydrates in Chinese too, then says the time in Chinese', async () => {
    const { html, container, mismatches } = await painted('zh_CN');
    expect(html).toContain('消息中心');
    expect(html).toContain('账号的安全事件与企业的通知。');
    expect(mismatches).toEqual([]);
    await waitFor(() => expect(time(container, 'tok').textContent).toBe('3分钟前'));
  });
});
