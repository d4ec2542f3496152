import { afterEach, describe, expect, it, vi } from 'vitest';
import { serviceError } from '../../tests/kit/fake-backend';
import { INBOX_URL } from './api';
import { messageTime } from './components/time';
import { INBOX_BATCH_MAX } from './limits';
import { COUNTS_POLL_MS, COUNTS_RETURN_MIN_MS, COUNTS_SETTLE_MS, createInboxStores, InboxCountsStore } from './store';
import { inboxBackend, testMessage } from './test-backend';

const LIST = `POST ${INBOX_URL}/messages:list`;
const COUNTS = `POST ${INBOX_URL}/messages/unread:countGroupByApp`;

/** `n` messages m0 (newest) … m{n-1}, all unread. */
const many = (n: number, extra = {}) => Array.from({ length: n }, (_, i) => testMessage(`m${i}`, extra));

/** Lets the fire-and-forget count refreshes settle. */
const settle = () => new Promise((r) => setTimeout(r, 0));

afterEach(() => vi.useRealTimers());

describe('InboxStore: pages', () => {
  it('loads the first page of the tab and filter, appends the next ones by token, and stops at the last', async () => {
    const b = inboxBackend(many(5));
    const { inbox, counts } = createInboxStores(b.client, { pageSize: 2 });
    expect(inbox.loading).toBe(true);
    await inbox.load();
    await settle();
    expect(inbox.messages.map((m) => m.id)).toEqual(['m0', 'm1']);
    expect(inbox.nextToken).toBe('m1');
    expect(b.callsTo(LIST)[0].body).toEqual({ tab: 'all', page_size: 2 });
    expect(counts.counts).toMatchObject({ unread: 5, total: 5 });

    expect(await inbox.loadMore()).toEqual({ ok: true });
    expect(b.callsTo(LIST)[1].body).toEqual({ tab: 'all', page_size: 2, next_token: 'm1' });
    await inbox.loadMore();
    expect(inbox.messages.map((m) => m.id)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
    expect(inbox.nextToken).toBeNull();
    // Nothing more to ask for.
    await inbox.loadMore();
    expect(b.callsTo(LIST)).toHaveLength(3);
  });

  it('asks for the Unread tab and one application, from the first page, forgetting the selection', async () => {
    const b = inboxBackend([
      testMessage('a', { app: 'packages' }),
      testMessage('b', { read: true }),
      testMessage('c', { app: 'packages', read: true }),
      testMessage('d'),
    ]);
    const { inbox } = createInboxStores(b.client);
    await inbox.load();
    inbox.toggle('a');
    await inbox.setTab('unread');
    expect(inbox.messages.map((m) => m.id)).toEqual(['a', 'd']);
    expect(inbox.selected.size).toBe(0);
    await inbox.setApp('packages');
    expect(b.callsTo(LIST).at(-1)?.body).toEqual({ tab: 'unread', app: 'packages', page_size: 20 });
    expect(inbox.messages.map((m) => m.id)).toEqual(['a']);
    await inbox.setTab('all');
    expect(inbox.messages.map((m) => m.id)).toEqual(['a', 'c']);
    await inbox.setApp(null);
    expect(inbox.messages).toHaveLength(4);
  });

  it('stops loading on failure with an empty list; a failed "load more" keeps the list and says so', async () => {
    let fail = 500;
    const b = inboxBackend(many(3), { fail: (c) => (c.path.endsWith(':list') ? fail : undefined) });
    const { inbox } = createInboxStores(b.client, { pageSize: 2 });
    await inbox.load();
    expect(inbox).toMatchObject({ loading: false, loaded: true, failed: true, messages: [] });
    expect(b.notices).toHaveLength(1);
    fail = 0;
    await inbox.load();
    expect(inbox.messages).toHaveLength(2);
    fail = 400;
    expect(await inbox.loadMore()).toEqual({ ok: false, failure: { id: 'notifications.result.loadMoreFailed' } });
    expect(inbox.messages).toHaveLength(2);
    expect(inbox.loadingMore).toBe(false);
  });

  it('lets a newer load own the list when answers cross', async () => {
    const b = inboxBackend(many(3));
    const { inbox } = createInboxStores(b.client);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    b.on(LIST, async (call) => {
      const tab = (call.body as { tab: string }).tab;
      if (tab === 'all') await gate;
      return { status: 200, body: { messages: tab === 'all' ? many(3) : [], pages: { next_token: null } } };
    });
    const first = inbox.load();
    const second = inbox.setTab('unread');
    await second;
    release();
    await first;
    expect(inbox.tab).toBe('unread');
    expect(inbox.messages).toEqual([]);
  });
});

describe('InboxStore: read and delete keep the counts in step', () => {
  it('marks one read (no call when already read), and the shared counts follow', async () => {
    const b = inboxBackend([testMessage('a'), testMessage('b', { read: true })]);
    const { inbox, counts } = createInboxStores(b.client);
    await inbox.load();
    await settle();
    expect(counts.unreadOf()).toBe(1);
    expect(await inbox.markRead('a')).toEqual({ ok: true });
    await settle();
    expect(inbox.messages[0].read).toBe(true);
    expect(counts.unreadOf()).toBe(0);
    const reads = b.calls.filter((c) => c.path.endsWith('/read')).length;
    await inbox.markRead('b');
    expect(b.calls.filter((c) => c.path.endsWith('/read'))).toHaveLength(reads);
  });

  it('counts a change made on a page that brought its list and counts (the seed answers only the arrival)', async () => {
    const b = inboxBackend([testMessage('a'), testMessage('b')]);
    const { inbox, counts } = createInboxStores(b.client);
    counts.seed({ unread: 2, total: 2, apps: [] });
    inbox.seed({ messages: b.messages.slice(), pages: { next_token: null } });
    await inbox.load();
    await settle();
    expect(b.callsTo(LIST)).toHaveLength(0);
    expect(b.callsTo(COUNTS)).toHaveLength(0);

    await inbox.markRead('a');
    await settle();
    expect(counts.unreadOf()).toBe(1);
    // Arriving on another page later asks again: the seed was the first page's only.
    await counts.arrive();
    expect(b.callsTo(COUNTS)).toHaveLength(2);
  });

  it('drops a message the service no longer has and says why', async () => {
    const b = inboxBackend([testMessage('a'), testMessage('b')]);
    const { inbox } = createInboxStores(b.client);
    await inbox.load();
    b.messages.splice(0, 1);
    expect(await inbox.markRead('a')).toEqual({ ok: false, failure: { id: 'notifications.error.notFound' } });
    expect(inbox.messages.map((m) => m.id)).toEqual(['b']);
  });

  it('deletes one; an unread security message is refused with its own message; counts follow', async () => {
    const b = inboxBackend([testMessage('s', { sensitive: true }), testMessage('a', { read: true })]);
    const { inbox, counts } = createInboxStores(b.client);
    await inbox.load();
    expect(await inbox.remove('s')).toEqual({ ok: false, failure: { id: 'notifications.error.unreadSensitive' } });
    expect(inbox.messages).toHaveLength(2);
    expect(await inbox.remove('a')).toEqual({ ok: true });
    await settle();
    expect(inbox.messages.map((m) => m.id)).toEqual(['s']);
    expect(counts.counts).toMatchObject({ unread: 1, total: 1 });
    await inbox.markRead('s');
    expect(await inbox.remove('s')).toEqual({ ok: true });
    await settle();
    expect(counts.counts).toMatchObject({ unread: 0, total: 0 });
  });

  it('marks the selection read and deletes it; unread security messages are kept, listed and counted', async () => {
    const b = inboxBackend([
      testMessage('a'),
      testMessage('s', { sensitive: true }),
      testMessage('b', { read: true }),
      testMessage('c'),
    ]);
    const { inbox, counts } = createInboxStores(b.client);
    await inbox.load();
    inbox.toggle('a');
    inbox.toggle('b');
    const read = await inbox.markSelectedRead();
    expect(read).toEqual({ ok: true, changed: { count: 1, kept: 0 } });
    // Only the unread ones of the selection are sent.
    expect(b.callsTo(`POST ${INBOX_URL}/messages/read`)[0].body).toEqual({ ids: ['a'] });
    expect(inbox.selected.size).toBe(2);

    inbox.toggle('s');
    const gone = await inbox.removeSelected();
    await settle();
    expect(gone).toEqual({ ok: true, changed: { count: 2, kept: 1 } });
    expect(b.callsTo(`POST ${INBOX_URL}/messages:batchDelete`)[0].body).toEqual({ ids: ['a', 's', 'b'] });
    expect(inbox.messages.map((m) => m.id)).toEqual(['s', 'c']);
    expect([...inbox.selected]).toEqual(['s']);
    expect(counts.counts).toMatchObject({ unread: 2, total: 2 });
  });

  it('asks again when the service kept other messages than the page expected', async () => {
    const b = inboxBackend([testMessage('a'), testMessage('s', { sensitive: true })]);
    const { inbox } = createInboxStores(b.client);
    await inbox.load();
    // Read in another tab meanwhile: the service deletes it although the page thought it was kept.
    b.messages[1].read = true;
    inbox.selectAll(true);
    expect(inbox.allSelected).toBe(true);
    const lists = b.callsTo(LIST).length;
    expect(await inbox.removeSelected()).toEqual({ ok: true, changed: { count: 2, kept: 0 } });
    expect(b.callsTo(LIST)).toHaveLength(lists + 1);
    expect(inbox.messages).toEqual([]);
  });

  it('sends a large selection in batches the service accepts', async () => {
    const b = inboxBackend(many(INBOX_BATCH_MAX + 5));
    const { inbox } = createInboxStores(b.client, { pageSize: 100 });
    await inbox.load();
    await inbox.loadMore();
    inbox.selectAll(true);
    expect(await inbox.markSelectedRead()).toEqual({ ok: true, changed: { count: INBOX_BATCH_MAX + 5, kept: 0 } });
    expect(b.callsTo(`POST ${INBOX_URL}/messages/read`).map((c) => (c.body as { ids: string[] }).ids.length)).toEqual([
      INBOX_BATCH_MAX,
      5,
    ]);
  });

  it('marks all read and deletes all read, of the filtered application only', async () => {
    const b = inboxBackend([
      testMessage('a'),
      testMessage('p', { app: 'packages' }),
      testMessage('q', { app: 'packages', read: true }),
      testMessage('r', { read: true }),
    ]);
    const { inbox, counts } = createInboxStores(b.client);
    await inbox.setApp('packages');
    expect(await inbox.markAllRead()).toEqual({ ok: true, changed: { count: 1, kept: 0 } });
    expect(b.callsTo(`POST ${INBOX_URL}/messages/read`)[0].body).toEqual({ app: 'packages' });
    expect(inbox.messages.every((m) => m.read)).toBe(true);
    expect(await inbox.removeRead()).toEqual({ ok: true, changed: { count: 2, kept: 0 } });
    expect(b.callsTo(`POST ${INBOX_URL}/messages:deleteRead`)[0].body).toEqual({ app: 'packages' });
    expect(inbox.messages).toEqual([]);
    await settle();
    expect(counts.counts).toMatchObject({ unread: 1, total: 2 });
    expect(counts.unreadOf('packages')).toBe(0);
    expect(counts.totalOf('account')).toBe(2);

    await inbox.setApp(null);
    await inbox.markAllRead();
    expect(b.callsTo(`POST ${INBOX_URL}/messages/read`)[1].body).toEqual({});
    await inbox.removeRead();
    await settle();
    expect(counts.counts).toMatchObject({ unread: 0, total: 0 });
  });

  it('loads the first page again when a deletion empties the loaded part of a longer list', async () => {
    const b = inboxBackend(many(3, { read: true }));
    const { inbox } = createInboxStores(b.client, { pageSize: 2 });
    await inbox.load();
    inbox.selectAll(true);
    await inbox.removeSelected();
    expect(inbox.messages.map((m) => m.id)).toEqual(['m2']);
    expect(inbox.nextToken).toBeNull();
  });

  it('falls back to the action’s message when the service cannot be reached; a 500 adds nothing', async () => {
    const b = inboxBackend([testMessage('a', { read: true })]);
    const { inbox } = createInboxStores(b.client);
    await inbox.load();
    b.on(`POST ${INBOX_URL}/messages:deleteRead`, () => {
      throw new TypeError('network down');
    });
    expect(await inbox.removeRead()).toEqual({ ok: false, failure: { id: 'notifications.result.deleteFailed' } });
    b.on(`POST ${INBOX_URL}/messages/read`, serviceError(500, 'SystemError', 'x', 'req-9'));
    expect(await inbox.markAllRead()).toEqual({ ok: false, failure: undefined });
    expect(b.notices.map((n) => n.requestId)).toEqual(['req-9']);
    expect(inbox.messages).toHaveLength(1);
    expect(inbox.saving).toBe(false);
  });
});

describe('InboxCountsStore', () => {
  it('keeps the last counts when a refresh fails, and the latest answer wins', async () => {
    const b = inboxBackend([testMessage('a')]);
    const { counts } = createInboxStores(b.client);
    await counts.refresh();
    expect(counts.unreadOf()).toBe(1);
    b.on(COUNTS, serviceError(503, 'Unavailable'));
    await counts.refresh();
    expect(counts.unreadOf()).toBe(1);
    expect(counts.failed).toBe(true);

    const answers: Array<(n: number) => void> = [];
    b.on(COUNTS, () => new Promise((r) => answers.push((n) => r({ body: { unread: n, total: n, apps: [] } }))));
    const older = counts.refresh();
    const newer = counts.refresh();
    await settle();
    answers[1](7);
    await newer;
    answers[0](3);
    await older;
    expect(counts.unreadOf()).toBe(7);
  });

  it('refreshes on window focus and every minute while watched, and stops with the last watcher', async () => {
    vi.useFakeTimers();
    const b = inboxBackend([]);
    const counts = new InboxCountsStore((await import('./api')).inboxApi(b.client));
    const stopA = counts.watch();
    const stopB = counts.watch();
    window.dispatchEvent(new Event('focus'));
    expect(b.callsTo(COUNTS)).toHaveLength(1);
    vi.advanceTimersByTime(COUNTS_POLL_MS - 1);
    expect(b.callsTo(COUNTS)).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(b.callsTo(COUNTS)).toHaveLength(2);
    stopA();
    stopA();
    vi.advanceTimersByTime(COUNTS_POLL_MS);
    expect(b.callsTo(COUNTS)).toHaveLength(3);
    stopB();
    window.dispatchEvent(new Event('focus'));
    vi.advanceTimersByTime(COUNTS_POLL_MS * 3);
    expect(b.callsTo(COUNTS)).toHaveLength(3);
  });
});

describe('InboxCountsStore: a fresh bell', () => {
  /** A call of another section whose answer says it wrote a message (a new SSH key, a password reset…). */
  const KEYS = '/uiless/proxy/codeup/api/v3/user/keys';
  const SEARCH = '/users/ajax/v1/my/tokens:search';
  const watched = () => {
    const b = inboxBackend([]);
    b.on(`POST ${KEYS}`, () => {
      b.messages.unshift(testMessage(`w${b.messages.length}`));
      return { status: 201, body: {}, headers: { 'x-account-events': '1' } };
    });
    b.on(`POST ${SEARCH}`, { body: { access_tokens: [] } });
    const { counts } = createInboxStores(b.client);
    return { b, counts, stop: counts.watch() };
  };
  const visibility = (state: 'visible' | 'hidden') => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
    document.dispatchEvent(new Event('visibilitychange'));
  };
  afterEach(() => {
    Reflect.deleteProperty(document, 'visibilityState');
  });

  it('asks once, shortly after a burst of calls that wrote messages, and shows the new count', async () => {
    vi.useFakeTimers();
    const { b, counts, stop } = watched();
    await Promise.all([b.client.post(KEYS, {}), b.client.post(KEYS, {})]);
    await b.client.post(KEYS, {});
    expect(b.callsTo(COUNTS)).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(COUNTS_SETTLE_MS);
    expect(b.callsTo(COUNTS)).toHaveLength(1);
    expect(counts.unreadOf()).toBe(3);
    // A later write is a new burst.
    await b.client.post(KEYS, {});
    await vi.advanceTimersByTimeAsync(COUNTS_SETTLE_MS);
    expect(b.callsTo(COUNTS)).toHaveLength(2);
    expect(counts.unreadOf()).toBe(4);
    stop();
  });

  it('asks nothing after calls that wrote no message, POST reads included, nor once the bell is gone', async () => {
    vi.useFakeTimers();
    const { b, counts, stop } = watched();
    await b.client.post(SEARCH, {});
    await counts.refresh();
    await vi.advanceTimersByTimeAsync(COUNTS_SETTLE_MS * 4);
    // The count call itself told nothing, so it asked once and never again (no loop).
    expect(b.callsTo(COUNTS)).toHaveLength(1);
    // A write whose refresh is pending when the last bell goes asks nothing, and nor does a later one.
    await b.client.post(KEYS, {});
    stop();
    await b.client.post(KEYS, {});
    await vi.advanceTimersByTimeAsync(COUNTS_SETTLE_MS * 4);
    expect(b.callsTo(COUNTS)).toHaveLength(1);
  });

  it('asks when the tab comes back, once for focus and visibility together, and not again within a few seconds', async () => {
    vi.useFakeTimers();
    const { b, stop } = watched();
    visibility('hidden');
    expect(b.callsTo(COUNTS)).toHaveLength(0);
    visibility('visible');
    window.dispatchEvent(new Event('focus'));
    expect(b.callsTo(COUNTS)).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(COUNTS_RETURN_MIN_MS - 1);
    visibility('hidden');
    visibility('visible');
    expect(b.callsTo(COUNTS)).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    visibility('hidden');
    visibility('visible');
    expect(b.callsTo(COUNTS)).toHaveLength(2);
    stop();
  });
});

describe('messageTime', () => {
  const now = new Date(2026, 10, 22, 15, 30).getTime();
  const t = (id: string) => ({ 'core.date.today': 'Today', 'core.date.yesterday': 'Yesterday' })[id] ?? id;
  const at = (ms: number) => new Date(now - ms).toISOString();

  it('is relative under an hour, then Today/Yesterday HH:mm, then the date', () => {
    expect(messageTime(at(3 * 60_000), 'en_US', t, now)).toBe('3 minutes ago');
    expect(messageTime(at(59 * 60_000), 'en_US', t, now)).toBe('59 minutes ago');
    expect(messageTime(at(30_000), 'zh_CN', t, now)).toBe('30秒钟前');
    expect(messageTime(at(3 * 60_000), 'zh_CN', t, now)).toBe('3分钟前');
    expect(messageTime(new Date(2026, 10, 22, 14, 5).toISOString(), 'en_US', t, now)).toBe('Today 14:05');
    expect(messageTime(new Date(2026, 10, 21, 23, 59).toISOString(), 'en_US', t, now)).toBe('Yesterday 23:59');
    expect(messageTime(new Date(2026, 10, 20, 8, 0).toISOString(), 'en_US', t, now)).toBe('2026-11-20 08:00');
    // A little clock skew reads as new, not as "in 5 seconds".
    expect(messageTime(at(-5000), 'en_US', t, now)).toBe('0 seconds ago');
    expect(messageTime('not a date', 'en_US', t, now)).toBe('-');
  });
});
