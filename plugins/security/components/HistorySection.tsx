import { DownloadOutlined } from '@ant-design/icons';
import { Button, Empty, Select, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { observer } from 'mobx-react-lite';
import { FormattedMessage, useIntl } from 'react-intl';
import { failureText } from '../../../src/core/stores/failure';
import { LocalTime } from '../../../src/core/ui/LocalTime';
import { ResponsiveTable } from '../../../src/core/ui/ResponsiveTable';
import type { HistoryEntry, HistoryGroup } from '../contract';
import { HISTORY_DAYS } from '../limits';
import type { HistoryStore } from '../store';
import { SectionHeading } from './SectionHeading';
import { browserText, GROUP_IDS, GROUPS, historySentence, type Translate, type Toast } from './words';
import { LoadFailed } from './LoadFailed';

/** Props of the history part of the page. */
export interface HistorySectionProps {
  store: HistoryStore;
  /** The page's toasts. */
  toast: Toast;
}

const TITLE_ID = 'security-history-title';
const FILTER_ID = 'security-history-filter';

/**
 * "Sign-in history": the account's own log, newest first, filtered by a group of kinds, a page at a time ("load
 * more"), each entry's time, what happened, address and browser; "Export CSV" downloads the group shown.
 */
export const HistorySection = observer(function HistorySection({ store, toast }: HistorySectionProps) {
  const intl = useIntl();
  const t: Translate = (id, values) => intl.formatMessage({ id }, values);

  const loadMore = async () => {
    const r = await store.loadMore();
    if (!r.ok && r.failure) void toast.error(failureText(r.failure, t));
  };

  const columns: ColumnsType<HistoryEntry> = [
    {
      title: t('security.history.column.event'),
      key: 'event',
      render: (_, e) => {
        const sentence = historySentence(e, t);
        return (
          // A long name (a token's, up to 200 characters) wraps instead of widening the table.
          <span
            data-testid="security-history-event"
            data-kind={e.kind}
            style={{ display: 'block', minWidth: 160, maxWidth: 420, overflowWrap: 'anywhere' }}
          >
            <FormattedMessage id={sentence.id} values={sentence.values} />
          </span>
        );
      },
    },
    {
      title: t('security.history.column.time'),
      key: 'time',
      render: (_, e) => <LocalTime value={e.at} />,
    },
    {
      title: t('security.history.column.address'),
      key: 'address',
      render: (_, e) => <span style={{ overflowWrap: 'anywhere' }}>{e.address ?? t('security.unknownAddress')}</span>,
    },
    {
      title: t('security.history.column.browser'),
      key: 'browser',
      render: (_, e) => (e.browser ? browserText(e.browser, t) : t('security.browser.none')),
    },
  ];

  const filter = (
    <div style={{ display: 'flex', alignItems: 'center', gap: 8, flexWrap: 'wrap', minWidth: 0 }}>
      <label htmlFor={FILTER_ID} style={{ whiteSpace: 'nowrap' }}>
        <FormattedMessage id="security.history.filter" />
      </label>
      <Select<HistoryGroup | 'all'>
        id={FILTER_ID}
        data-testid="security-history-filter"
        value={store.group ?? 'all'}
        onChange={(v) => void store.setGroup(v === 'all' ? null : v)}
        style={{ width: 200, maxWidth: '100%' }}
        popupMatchSelectWidth={false}
        options={[
          { value: 'all', label: t('security.history.group.all') },
          ...GROUPS.map((g) => ({ value: g, label: t(GROUP_IDS[g]) })),
        ]}
      />
      <Button href={store.exportUrl} download icon={<DownloadOutlined />} data-testid="security-history-export">
        <FormattedMessage id="security.history.export" />
      </Button>
    </div>
  );

  return (
    <section aria-labelledby={TITLE_ID} data-testid="security-history">
      <SectionHeading id={TITLE_ID} titleId="security.history.title" action={filter} />
      <Typography.Paragraph type="secondary">
        <FormattedMessage id="security.history.description" values={{ days: HISTORY_DAYS }} />
      </Typography.Paragraph>
      {store.failed ? (
        <LoadFailed titleId="security.history.loadFailed" onRetry={() => void store.load()} />
      ) : (
        <>
          <ResponsiveTable<HistoryEntry>
            data-testid="security-history-entry"
            rowKey="id"
            size="middle"
            loading={store.loading}
            columns={columns}
            dataSource={store.entries}
            pagination={false}
            scroll={{ x: 'max-content' }}
            locale={{
              emptyText: (
                <Empty description={<span data-testid="security-history-empty">{t('security.history.empty')}</span>} />
              ),
            }}
          />
          {store.next && !store.loading && (
            <div style={{ textAlign: 'center', marginTop: 16 }}>
              <Button onClick={() => void loadMore()} loading={store.loadingMore} data-testid="security-history-more">
                <FormattedMessage id="security.history.loadMore" />
              </Button>
            </div>
          )}
        </>
      )}
    </section>
  );
});
