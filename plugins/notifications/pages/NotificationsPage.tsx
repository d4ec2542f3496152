import { Alert, Button, Empty, message as toastApi, Select, Skeleton, Tabs, Typography } from 'antd';
import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { failureText, type Failure } from '../../../src/core/stores/failure';
import { SignedIn } from '../../../src/core/ui/SignedIn';
import { useStore, useStores } from '../../../src/core/stores/root';
import { BatchBar } from '../components/BatchBar';
import { APP_NAME_IDS, MessageItem } from '../components/MessageItem';
import { INBOX_APPS, type InboxApp, type InboxTab } from '../limits';
import type { InboxChangeResult } from '../store';
import { useNow } from '../../../src/core/ui/useNow';

/** How often relative times ("3 minutes ago") move on while the page is open. */
const TICK_MS = 30_000;

/** Props of the message center view. */
export interface InboxViewProps {
  /** The clock relative times are measured against (default the real one). */
  clock?: () => number;
}

/**
 * The message center: tabs All and Unread with counts, a filter by application, the list (unread bold with a
 * dot, the sensitive-behaviour tag, relative times), select-many with batch read and delete, read all, delete
 * all read, and "load more" for older messages.
 */
export const InboxView = observer(function InboxView({ clock = Date.now }: InboxViewProps) {
  const inbox = useStore('inbox');
  const { session } = useStores();
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const [toast, toastHolder] = toastApi.useMessage();
  const now = useNow(clock, TICK_MS);
  const locale = session.locale;

  useEffect(() => {
    // Titles and bodies come in the reader's language: a language switch asks again.
    void inbox.load();
  }, [inbox, locale]);

  // No failure to describe means a response ≥ 500: the central notice (with its requestId) has said it.
  const sayFailure = (f: Failure | undefined) => f && void toast.error(failureText(f, t));

  /** Says what a change did: how many it changed and, for deletions, how many unread security messages it kept. */
  const sayChanged = (r: InboxChangeResult, doneId: string) => {
    if (!r.ok) return sayFailure(r.failure);
    void toast.success(t(doneId, { count: r.changed.count }));
    if (r.changed.kept > 0) void toast.warning(t('notifications.result.kept', { count: r.changed.kept }));
  };

  const app = inbox.app;
  const counts = inbox.counts;
  const unreadCount = counts.unreadOf(app);
  const totalCount = counts.totalOf(app);
  const anyUnread = unreadCount > 0 || inbox.messages.some((m) => !m.read);
  const anyRead = totalCount > unreadCount || inbox.messages.some((m) => m.read);

  let body;
  if (inbox.loading)
    body = (
      <div aria-busy="true" aria-label={t('notifications.list.loading')} role="status">
        <Skeleton active paragraph={{ rows: 3 }} title={false} />
      </div>
    );
  else if (inbox.failed)
    body = (
      <Alert
        type="error"
        showIcon
        role="alert"
        title={t('notifications.list.loadFailed')}
        action={
          <Button size="small" onClick={() => void inbox.load()}>
            <FormattedMessage id="notifications.list.retry" />
          </Button>
        }
      />
    );
  else if (!inbox.messages.length)
    body = (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={
          <span data-testid="inbox-empty">
            {t(inbox.tab === 'unread' ? 'notifications.list.emptyUnread' : 'notifications.list.empty')}
          </span>
        }
      />
    );
  else
    body = (
      <>
        <ul
          aria-label={t('notifications.list.label')}
          data-testid="inbox-list"
          style={{ listStyle: 'none', margin: 0, padding: 0 }}
        >
          {inbox.messages.map((m, i) => (
            <MessageItem
              key={m.id}
              message={m}
              now={now}
              locale={locale}
              selected={inbox.selected.has(m.id)}
              busy={inbox.saving}
              onToggle={(on) => inbox.toggle(m.id, on)}
              onOpen={() => void inbox.markRead(m.id).then((r) => !r.ok && sayFailure(r.failure))}
              onRemove={async () => {
                const next = inbox.messages[i + 1]?.id ?? inbox.messages[i - 1]?.id;
                const r = await inbox.remove(m.id);
                if (!r.ok) return sayFailure(r.failure);
                void toast.success(t('notifications.result.deleted', { count: 1 }));
                // The row is gone with its focused control: go on with a neighbour, or the list's title.
                (document.getElementById(next ? `inbox-title-${next}` : 'inbox-title') as HTMLElement | null)?.focus();
              }}
            />
          ))}
        </ul>
        {inbox.nextToken && (
          <div style={{ textAlign: 'center', marginTop: 16 }}>
            <Button
              onClick={() => void inbox.loadMore().then((r) => !r.ok && sayFailure(r.failure))}
              loading={inbox.loadingMore}
              data-testid="inbox-load-more"
            >
              <FormattedMessage id="notifications.list.loadMore" />
            </Button>
          </div>
        )}
      </>
    );

  const tabLabel = (tab: InboxTab) => (
    <span data-testid={`inbox-tab-${tab}`}>
      {t(tab === 'all' ? 'notifications.tab.all' : 'notifications.tab.unread', {
        count: tab === 'all' ? totalCount : unreadCount,
      })}
    </span>
  );
  const content = (
    <>
      <BatchBar
        total={inbox.messages.length}
        selected={inbox.selectedMessages.length}
        allSelected={inbox.allSelected}
        busy={inbox.saving}
        canMarkAllRead={anyUnread}
        canDeleteRead={anyRead}
        appName={app ? t(APP_NAME_IDS[app]) : null}
        onSelectAll={(on) => inbox.selectAll(on)}
        onMarkSelectedRead={async () => sayChanged(await inbox.markSelectedRead(), 'notifications.result.markedRead')}
        onDeleteSelected={async () => sayChanged(await inbox.removeSelected(), 'notifications.result.deleted')}
        onMarkAllRead={async () => sayChanged(await inbox.markAllRead(), 'notifications.result.markedRead')}
        onDeleteRead={async () => sayChanged(await inbox.removeRead(), 'notifications.result.deleted')}
      />
      {body}
    </>
  );

  return (
    <section
      aria-labelledby="inbox-title"
      data-testid="inbox"
      style={{ maxWidth: 960, margin: '0 auto', width: '100%', minWidth: 0 }}
    >
      {toastHolder}
      <div style={{ display: 'flex', alignItems: 'center', gap: 12, flexWrap: 'wrap' }}>
        <Typography.Title
          id="inbox-title"
          tabIndex={-1}
          level={1}
          style={{ fontSize: 20, margin: 0, flex: '1 1 auto' }}
        >
          <FormattedMessage id="notifications.page.title" />
        </Typography.Title>
        <div style={{ display: 'flex', alignItems: 'center', gap: 8, minWidth: 0 }}>
          <label htmlFor="inbox-app-filter" style={{ whiteSpace: 'nowrap' }}>
            <FormattedMessage id="notifications.filter.label" />
          </label>
          <Select<InboxApp | 'all'>
            id="inbox-app-filter"
            data-testid="inbox-app-filter"
            value={app ?? 'all'}
            onChange={(v) => void inbox.setApp(v === 'all' ? null : v)}
            style={{ width: 180, maxWidth: '100%' }}
            popupMatchSelectWidth={false}
            options={[
              { value: 'all', label: t('notifications.app.all') },
              ...INBOX_APPS.map((a) => ({ value: a, label: t(APP_NAME_IDS[a]) })),
            ]}
          />
        </div>
      </div>
      <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
        <FormattedMessage id="notifications.page.description" />
      </Typography.Paragraph>
      <Tabs
        activeKey={inbox.tab}
        onChange={(key) => void inbox.setTab(key as InboxTab)}
        items={(['all', 'unread'] as const).map((tab) => ({
          key: tab,
          label: tabLabel(tab),
          children: tab === inbox.tab ? content : null,
        }))}
      />
    </section>
  );
});

/** `/users/notifications`: the message center, once the session knows the user. */
export default function NotificationsPage() {
  return (
    <SignedIn failedId="notifications.list.loadFailed" retryId="notifications.list.retry">
      <InboxView />
    </SignedIn>
  );
}
