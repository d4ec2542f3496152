import { Button, Empty, Popconfirm, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { observer } from 'mobx-react-lite';
import { FormattedMessage, useIntl } from 'react-intl';
import type { Locale } from '../../../src/core/edition';
import { formatFullDateTime, formatRelativeTime } from '../../../src/core/i18n/format';
import { failureText, type Failure } from '../../../src/core/stores/failure';
import { LocalTime } from '../../../src/core/ui/LocalTime';
import { RelativeTime } from '../../../src/core/ui/RelativeTime';
import { ResponsiveTable } from '../../../src/core/ui/ResponsiveTable';
import type { SessionInfo } from '../contract';
import type { SessionsStore } from '../store';
import { SectionHeading } from './SectionHeading';
import { browserText, methodText, type Translate, type Toast } from './words';
import { LoadFailed } from './LoadFailed';

/** Props of the sessions part of the page. */
export interface SessionsSectionProps {
  store: SessionsStore;
  /** The page's ticking clock, for "last active 3 minutes ago". */
  now: number;
  /** The page's language, for relative and full times. */
  locale: Locale;
  /** The page's toasts. */
  toast: Toast;
}

const TITLE_ID = 'security-sessions-title';

/**
 * "Devices and sessions": where the account is signed in (browser and OS, sign-in method, address and place,
 * started, last active, this device), the timeouts in a sentence, and signing out one or all other sessions, each
 * after a confirmation. A card per session on a narrow window.
 */
export const SessionsSection = observer(function SessionsSection({ store, now, locale, toast }: SessionsSectionProps) {
  const intl = useIntl();
  const t: Translate = (id, values) => intl.formatMessage({ id }, values);
  // No failure to describe means a response ≥ 500 (the central notice said it) or a dismissed proof.
  const sayFailure = (f: Failure | undefined) => f && void toast.error(failureText(f, t));
  // The focused button leaves with its row: the keyboard goes on from the section's title.
  const refocus = () => document.getElementById(TITLE_ID)?.focus();

  const end = async (s: SessionInfo) => {
    const r = await store.end(s.id);
    if (r.ok) void toast.success(t('security.sessions.ended'));
    else sayFailure(r.failure);
    if (!store.sessions.some((x) => x.id === s.id)) refocus();
  };
  const endOthers = async () => {
    const r = await store.endOthers();
    if (r.ok) {
      void toast.success(t('security.sessions.endedOthers', { count: r.ended }));
      refocus();
    } else sayFailure(r.failure);
  };

  const columns: ColumnsType<SessionInfo> = [
    {
      title: t('security.sessions.column.device'),
      key: 'device',
      render: (_, s) => (
        <span style={{ display: 'inline-flex', flexWrap: 'wrap', alignItems: 'center', gap: 8, minWidth: 0 }}>
          <Typography.Text strong data-testid="security-session-browser">
            {browserText(s.browser, t)}
          </Typography.Text>
          {s.current && (
            <Tag style={{ marginInlineEnd: 0 }} data-testid="security-session-current">
              <FormattedMessage id="security.sessions.current" />
            </Tag>
          )}
        </span>
      ),
    },
    {
      title: t('security.sessions.column.method'),
      key: 'method',
      render: (_, s) => methodText(s.method, t),
    },
    {
      title: t('security.sessions.column.address'),
      key: 'address',
      render: (_, s) => (
        <span style={{ overflowWrap: 'anywhere' }}>
          {s.address ?? t('security.unknownAddress')}
          {s.place && (
            <Typography.Text type="secondary" style={{ display: 'block' }}>
              {s.place}
            </Typography.Text>
          )}
        </span>
      ),
    },
    {
      title: t('security.sessions.column.started'),
      key: 'started',
      render: (_, s) => <LocalTime value={s.created_at} />,
    },
    {
      title: t('security.sessions.column.lastActive'),
      key: 'lastActive',
      render: (_, s) => (
        <RelativeTime
          value={s.last_seen_at}
          now={now}
          // A time a few seconds ahead of the browser's clock (clocks differ a little) is just now.
          format={(at) => formatRelativeTime(s.last_seen_at, locale, Math.max(at, Date.parse(s.last_seen_at)))}
          title={() => formatFullDateTime(s.last_seen_at, locale)}
        />
      ),
    },
    {
      title: t('security.sessions.column.actions'),
      key: 'actions',
      render: (_, s) =>
        s.current ? (
          // Lined up with the other rows' link buttons (their padding).
          <Typography.Text type="secondary" style={{ paddingInline: 7 }}>
            <FormattedMessage id="security.sessions.thisOne" />
          </Typography.Text>
        ) : (
          <Popconfirm
            title={t('security.sessions.endConfirm', { browser: browserText(s.browser, t) })}
            description={t('security.sessions.endConfirmHint')}
            okText={t('security.sessions.end')}
            cancelText={t('security.cancel')}
            okButtonProps={{ danger: true, loading: store.ending === s.id }}
            onConfirm={() => end(s)}
          >
            <Button type="link" size="small" danger data-testid="security-session-end">
              <FormattedMessage id="security.sessions.end" />
            </Button>
          </Popconfirm>
        ),
    },
  ];

  const others = store.others.length;
  return (
    <section aria-labelledby={TITLE_ID} data-testid="security-sessions">
      <SectionHeading
        id={TITLE_ID}
        titleId="security.sessions.title"
        action={
          others > 0 && (
            <Popconfirm
              title={t('security.sessions.endOthersConfirm', { count: others })}
              description={t('security.sessions.endConfirmHint')}
              okText={t('security.sessions.endOthers')}
              cancelText={t('security.cancel')}
              okButtonProps={{ danger: true, loading: store.endingOthers }}
              onConfirm={endOthers}
            >
              <Button danger data-testid="security-sessions-end-others">
                <FormattedMessage id="security.sessions.endOthers" />
              </Button>
            </Popconfirm>
          )
        }
      />
      <Typography.Paragraph type="secondary">
        <FormattedMessage id="security.sessions.description" />
        {store.loaded && !store.failed && (
          <>
            {' '}
            <span data-testid="security-sessions-timeouts">
              <FormattedMessage
                id="security.sessions.timeouts"
                values={{ idle: store.data.idle_timeout_minutes, absolute: store.data.absolute_timeout_hours }}
              />
            </span>
          </>
        )}
      </Typography.Paragraph>
      {store.failed ? (
        <LoadFailed titleId="security.sessions.loadFailed" onRetry={() => void store.load()} />
      ) : (
        <ResponsiveTable<SessionInfo>
          data-testid="security-session"
          rowKey="id"
          size="middle"
          loading={store.loading}
          columns={columns}
          dataSource={store.sessions}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: <Empty description={t('security.sessions.empty')} /> }}
        />
      )}
    </section>
  );
});
