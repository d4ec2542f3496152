import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithCore } from '../../../tests/kit/web';
import type { Locale } from '../../../src/core/edition';
import { INBOX_URL } from '../api';
import InboxBell from '../components/InboxBell';
import type { InboxMessage } from '../contract';
import { inboxBackend, testMessage, type InboxBackend } from '../test-backend';
import { InboxView } from './NotificationsPage';

/** The page's clock: three minutes after the messages' default time. */
const NOW = Date.parse('2026-11-22T10:03:00.000Z');
const clock = () => NOW;

function mount(backend: InboxBackend, locale: Locale = 'en_US') {
  return renderWithCore(
    <>
      <InboxBell />
      <InboxView clock={clock} />
    </>,
    { backend, locale, route: '/users/settings/profile' },
  );
}

const rows = () => screen.queryAllByTestId('inbox-message');
const ids = () => rows().map((r) => r.getAttribute('data-message-id'));
const row = (id: string) => rows().find((r) => r.getAttribute('data-message-id') === id)!;
const bellCount = () => screen.queryByTestId('inbox-bell-count')?.textContent ?? null;
/** The open confirmation's OK button (antd renders it in a portal). */
const confirm = async (name: string) => {
  const pop = await waitFor(() => {
    const el = document.querySelector('.ant-popconfirm:not(.ant-popover-hidden)');
    if (!el) throw new Error('no confirmation open');
    return el as HTMLElement;
  });
  await act(async () => fireEvent.click(within(pop).getByRole('button', { name })));
};

const INBOX: InboxMessage[] = [
  testMessage('tok', {
    title: 'Personal access token created',
    body: 'The personal access token "ci" was created.',
    sensitive: true,
    link: '/users/settings/personalAccessToken',
    report_link: '/users/settings/security?not-me=1',
  }),
  testMessage('pkg', {
    app: 'packages',
    title: 'Artifact repository password reset',
    created_at: '2026-11-22T08:00:00.000Z',
  }),
  testMessage('old', { title: 'Avatar changed', read: true, created_at: '2026-11-20T08:00:00.000Z' }),
];

describe('message center page', () => {
  it('lists messages with read state, sensitive tag, application, relative time and counts per tab', async () => {
    const b = inboxBackend(INBOX);
    await mount(b);
    await waitFor(() => expect(ids()).toEqual(['tok', 'pkg', 'old']));
    expect(screen.getByTestId('inbox-tab-all').textContent).toBe('All (3)');
    expect(screen.getByTestId('inbox-tab-unread').textContent).toBe('Unread (2)');
    const tok = row('tok');
    expect(tok.getAttribute('data-read')).toBe('false');
    expect(within(tok).getByTestId('inbox-message-title').style.fontWeight).toBe('600');
    expect(within(tok).getByRole('button', { name: 'Unread: Personal access token created' })).toBeTruthy();
    expect(within(tok).getByTestId('inbox-sensitive').textContent).toBe('Sensitive action');
    expect(within(tok).getByTestId('inbox-message-meta').textContent).toBe('Account security · 3 minutes ago');
    expect(within(tok).getByTestId('inbox-message-time').getAttribute('title')).toMatch(/^November 22, 2026/);
    expect(within(tok).getByRole('link', { name: 'View' }).getAttribute('href')).toBe(
      '/users/settings/personalAccessToken',
    );
    // A security message offers "this wasn't me", which leads to the security page's dialog; others do not.
    expect(within(tok).getByRole('link', { name: "This wasn't me" }).getAttribute('href')).toBe(
      '/users/settings/security?not-me=1',
    );
    expect(within(row('pkg')).queryByTestId('inbox-message-not-me')).toBeNull();
    expect(within(row('pkg')).getByTestId('inbox-message-meta').textContent).toMatch(/^Artifact repository · /);
    expect(within(row('pkg')).queryByTestId('inbox-sensitive')).toBeNull();
    const old = row('old');
    expect(old.getAttribute('data-read')).toBe('true');
    // Two days old: the date and time (in the browser's time zone).
    expect(within(old).getByTestId('inbox-message-meta').textContent).toMatch(
      /^Account security · 2026-11-(19|20) \d\d:\d\d$/,
    );
    expect(within(old).queryByRole('button', { name: 'Mark as read' })).toBeNull();
    // The bell shows the same unread count, as text, and says it in its name.
    expect(bellCount()).toBe('2');
    expect(screen.getByTestId('inbox-bell').getAttribute('aria-label')).toBe('Messages, 2 unread');
  });

  it('opening an unread message (title, Enter) marks it read and lowers the counts and the bell at once', async () => {
    const b = inboxBackend(INBOX);
    await mount(b);
    await waitFor(() => expect(bellCount()).toBe('2'));
    const title = within(row('pkg')).getByTestId('inbox-message-title');
    await act(async () => fireEvent.click(title));
    await waitFor(() => expect(row('pkg').getAttribute('data-read')).toBe('true'));
    expect(title.getAttribute('aria-expanded')).toBe('true');
    expect(b.callsTo(`POST ${INBOX_URL}/messages/:id/read`).map((c) => c.path)).toEqual([
      `${INBOX_URL}/messages/pkg/read`,
    ]);
    await waitFor(() => expect(bellCount()).toBe('1'));
    expect(screen.getByTestId('inbox-tab-unread').textContent).toBe('Unread (1)');
    // Opening a read one again only folds it: no call.
    await act(async () => fireEvent.click(title));
    expect(title.getAttribute('aria-expanded')).toBe('false');
    expect(b.callsTo(`POST ${INBOX_URL}/messages/:id/read`)).toHaveLength(1);
    // "Mark as read" does the same for the keyboard, and following the link marks read too.
    await act(async () => fireEvent.click(within(row('tok')).getByRole('button', { name: 'Mark as read' })));
    await waitFor(() => expect(bellCount()).toBeNull());
    expect(screen.getByTestId('inbox-bell').getAttribute('aria-label')).toBe('Messages, 0 unread');
  });

  it('follows a message link in the app and marks it read', async () => {
    const b = inboxBackend(INBOX);
    const view = await mount(b);
    await waitFor(() => expect(ids()).toHaveLength(3));
    await act(async () => fireEvent.click(within(row('tok')).getByRole('link', { name: 'View' })));
    await waitFor(() => expect(view.location()).toBe('/users/settings/personalAccessToken'));
    await waitFor(() => expect(b.messages[0].read).toBe(true));
  });

  it('refuses to delete an unread security message, saying why; deletes others after a confirmation', async () => {
    const b = inboxBackend(INBOX);
    await mount(b);
    await waitFor(() => expect(ids()).toHaveLength(3));
    const locked = within(row('tok')).getByTestId('inbox-message-delete');
    expect(locked.getAttribute('aria-disabled')).toBe('true');
    const reason = document.getElementById(locked.getAttribute('aria-describedby')!);
    expect(reason?.textContent).toBe('A message about a sensitive action can be deleted once it has been read.');
    await act(async () => fireEvent.click(locked));
    expect(document.querySelector('.ant-popconfirm')).toBeNull();

    await act(async () => fireEvent.click(within(row('old')).getByTestId('inbox-message-delete')));
    expect(await screen.findByText('Delete this message? This cannot be undone.')).toBeTruthy();
    await confirm('Delete');
    await waitFor(() => expect(ids()).toEqual(['tok', 'pkg']));
    expect(await screen.findByText('1 message deleted')).toBeTruthy();
    expect(screen.getByTestId('inbox-tab-all').textContent).toBe('All (2)');
  });

  it('selects many: marks them read, deletes them after a confirmation and says how many security messages stayed', async () => {
    const b = inboxBackend([...INBOX, testMessage('new', { title: 'New sign-in', sensitive: true })]);
    await mount(b);
    await waitFor(() => expect(ids()).toHaveLength(4));
    const deleteSelected = screen.getByTestId('inbox-delete-selected') as HTMLButtonElement;
    expect(deleteSelected.disabled).toBe(true);
    fireEvent.click(screen.getByLabelText('Select "Artifact repository password reset"'));
    fireEvent.click(screen.getByLabelText('Select "Avatar changed"'));
    expect(screen.getByTestId('inbox-selected-count').textContent).toBe('2 selected');
    await act(async () => fireEvent.click(screen.getByTestId('inbox-read-selected')));
    await waitFor(() => expect(row('pkg').getAttribute('data-read')).toBe('true'));
    expect(await screen.findByText('1 message marked as read')).toBeTruthy();

    fireEvent.click(screen.getByLabelText('Select "New sign-in"'));
    await act(async () => fireEvent.click(deleteSelected));
    expect(await screen.findByText('Delete the 3 selected messages? This cannot be undone.')).toBeTruthy();
    await confirm('Delete');
    await waitFor(() => expect(ids()).toEqual(['tok', 'new']));
    expect(await screen.findByText('2 messages deleted')).toBeTruthy();
    expect(
      await screen.findByText('1 unread message about a sensitive action was kept: read it before deleting it.'),
    ).toBeTruthy();
    // The kept one stays selected, so the person sees which.
    expect(screen.getByTestId('inbox-selected-count').textContent).toBe('1 selected');
  });

  it('marks all read, deletes all read after a confirmation, and shows the empty state of each tab', async () => {
    const b = inboxBackend(INBOX);
    await mount(b);
    await waitFor(() => expect(ids()).toHaveLength(3));
    await act(async () => fireEvent.click(screen.getByTestId('inbox-read-all')));
    await waitFor(() => expect(rows().every((r) => r.getAttribute('data-read') === 'true')).toBe(true));
    await waitFor(() => expect(screen.getByTestId('inbox-tab-unread').textContent).toBe('Unread (0)'));
    expect(bellCount()).toBeNull();

    await act(async () => fireEvent.click(screen.getByRole('tab', { name: 'Unread (0)' })));
    expect(await screen.findByText('No unread messages')).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByRole('tab', { name: 'All (3)' })));
    await waitFor(() => expect(ids()).toHaveLength(3));

    await act(async () => fireEvent.click(screen.getByTestId('inbox-delete-read')));
    expect(await screen.findByText('Delete all read messages? This cannot be undone.')).toBeTruthy();
    await confirm('Delete');
    expect(await screen.findByText('No messages')).toBeTruthy();
    expect(await screen.findByText('3 messages deleted')).toBeTruthy();
    expect(screen.getByTestId('inbox-tab-all').textContent).toBe('All (0)');
    expect((screen.getByTestId('inbox-delete-read') as HTMLButtonElement).disabled).toBe(true);
  });

  it('filters by application, with the counts of that application', async () => {
    const b = inboxBackend(INBOX);
    await mount(b);
    await waitFor(() => expect(ids()).toHaveLength(3));
    await act(async () => fireEvent.mouseDown(screen.getByRole('combobox')));
    const option = await screen.findByTitle('Artifact repository');
    await act(async () => fireEvent.click(option));
    await waitFor(() => expect(ids()).toEqual(['pkg']));
    expect(b.callsTo(`POST ${INBOX_URL}/messages:list`).at(-1)?.body).toEqual({
      tab: 'all',
      app: 'packages',
      page_size: 20,
    });
    expect(screen.getByTestId('inbox-tab-all').textContent).toBe('All (1)');
    expect(screen.getByTestId('inbox-tab-unread').textContent).toBe('Unread (1)');
  });

  it('offers older messages with "load more"', async () => {
    const b = inboxBackend(Array.from({ length: 25 }, (_, i) => testMessage(`m${i}`, { read: true })));
    await mount(b);
    await waitFor(() => expect(ids()).toHaveLength(20));
    await act(async () => fireEvent.click(screen.getByTestId('inbox-load-more')));
    await waitFor(() => expect(ids()).toHaveLength(25));
    expect(screen.queryByTestId('inbox-load-more')).toBeNull();
  });

  it('says the list failed to load and retries', async () => {
    let fail = true;
    const b = inboxBackend(INBOX, { fail: (c) => (fail && c.path.endsWith(':list') ? 503 : undefined) });
    await mount(b);
    expect(await screen.findByText('Something went wrong, please try again')).toBeTruthy();
    expect(rows()).toHaveLength(0);
    fail = false;
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Retry' })));
    await waitFor(() => expect(ids()).toHaveLength(3));
  });

  it('speaks Chinese: tabs, applications, tag, relative time, bell', async () => {
    const b = inboxBackend(INBOX);
    await mount(b, 'zh_CN');
    await waitFor(() => expect(ids()).toHaveLength(3));
    expect(screen.getByTestId('inbox-tab-all').textContent).toBe('全部（3）');
    expect(screen.getByTestId('inbox-tab-unread').textContent).toBe('未读（2）');
    expect(within(row('tok')).getByTestId('inbox-sensitive').textContent).toBe('敏感操作');
    expect(within(row('tok')).getByTestId('inbox-message-meta').textContent).toBe('账号安全 · 3分钟前');
    expect(within(row('tok')).getByRole('link', { name: '查看' })).toBeTruthy();
    // Two hours ago: today (or yesterday, in a time zone where midnight fell between).
    expect(within(row('pkg')).getByTestId('inbox-message-meta').textContent).toMatch(
      /^制品仓库 · (今天|昨天) \d\d:\d\d$/,
    );
    expect(screen.getByTestId('inbox-bell').getAttribute('aria-label')).toBe('消息，2 条未读');
  });
});

describe('the bell with counts the page brought', () => {
  const COUNTS = `POST ${INBOX_URL}/messages/unread:countGroupByApp`;
  const brought = { unread: 7, total: 9, apps: [{ app: 'codeup', unread: 7, total: 9 }] };

  it('shows them in its first render and asks nothing on arrival; later asks go to the service', async () => {
    const b = inboxBackend(INBOX);
    await renderWithCore(<InboxBell />, {
      backend: b,
      route: '/users/settings/profile',
      pageData: { notifications: { counts: brought } },
    });
    expect(bellCount()).toBe('7');
    await act(async () => new Promise((r) => setTimeout(r, 0)));
    expect(b.callsTo(COUNTS)).toHaveLength(0);
    // Fresh once only: the next refresh (focus, a minute, a navigation) asks, and the service's counts show.
    await act(async () => window.dispatchEvent(new Event('focus')));
    expect(b.callsTo(COUNTS)).toHaveLength(1);
    await waitFor(() => expect(bellCount()).toBe('2'));
  });

  it('ignores malformed counts and asks as without them', async () => {
    for (const bad of [{ unread: -1, total: 0, apps: [] }, { unread: 1, total: 1 }, 'seven', null]) {
      const b = inboxBackend(INBOX);
      await renderWithCore(<InboxBell />, {
        backend: b,
        route: '/users/settings/profile',
        pageData: { notifications: { counts: bad } },
      });
      await waitFor(() => expect(b.callsTo(COUNTS)).toHaveLength(1));
      await waitFor(() => expect(bellCount()).toBe('2'));
      cleanup();
    }
  });
});

describe('the message center served with the counts', () => {
  it('shows its list and the brought counts without asking the counts again', async () => {
    const b = inboxBackend(INBOX);
    await renderWithCore(
      <>
        <InboxBell />
        <InboxView clock={clock} />
      </>,
      {
        backend: b,
        route: '/users/notifications',
        pageData: { notifications: { counts: { unread: 2, total: 3, apps: [] } } },
      },
    );
    await waitFor(() => expect(ids()).toEqual(['tok', 'pkg', 'old']));
    expect(bellCount()).toBe('2');
    expect(b.callsTo(`POST ${INBOX_URL}/messages/unread:countGroupByApp`)).toHaveLength(0);
  });
});

describe('the message center served with its first page', () => {
  const LIST = `POST ${INBOX_URL}/messages:list`;
  const COUNTS = `POST ${INBOX_URL}/messages/unread:countGroupByApp`;
  const brought = { messages: INBOX.slice(0, 2), pages: { next_token: 'next-1' } };

  it('shows the list the page brought and asks nothing on arrival; "load more" and a tab ask the service', async () => {
    const b = inboxBackend(INBOX);
    await renderWithCore(<InboxView clock={clock} />, {
      backend: b,
      route: '/users/notifications',
      pageData: { notifications: { counts: { unread: 2, total: 3, apps: [] }, page: brought } },
    });
    expect(ids()).toEqual(['tok', 'pkg']);
    await act(async () => new Promise((r) => setTimeout(r, 0)));
    expect(b.callsTo(LIST)).toHaveLength(0);
    expect(b.callsTo(COUNTS)).toHaveLength(0);
    expect(screen.getByTestId('inbox-load-more')).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByTestId('inbox-tab-unread')));
    await waitFor(() => expect(b.callsTo(LIST)).toHaveLength(1));
    expect(b.callsTo(LIST)[0].body).toMatchObject({ tab: 'unread' });
  });

  it('asks for the list when what the page brought is malformed (an unknown application, a missing field)', async () => {
    for (const bad of [
      { messages: [{ ...INBOX[0], app: 'elsewhere' }], pages: { next_token: null } },
      { messages: [{ ...INBOX[0], read: 'no' }], pages: { next_token: null } },
      { messages: INBOX },
    ]) {
      const b = inboxBackend(INBOX);
      await renderWithCore(<InboxView clock={clock} />, { backend: b, pageData: { notifications: { page: bad } } });
      await waitFor(() => expect(ids()).toEqual(['tok', 'pkg', 'old']));
      expect(b.callsTo(LIST)).toHaveLength(1);
      cleanup();
    }
  });
});
