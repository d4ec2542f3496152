import { Button, Empty, Popconfirm, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { observer } from 'mobx-react-lite';
import { FormattedMessage, useIntl } from 'react-intl';
import { failureText, type Failure } from '../../../src/core/stores/failure';
import { LocalTime } from '../../../src/core/ui/LocalTime';
import { ResponsiveTable } from '../../../src/core/ui/ResponsiveTable';
import type { TrustedBrowser } from '../contract';
import type { TrustedBrowsersStore } from '../store';
import { SectionHeading } from './SectionHeading';
import { browserText, type Translate, type Toast } from './words';
import { LoadFailed } from './LoadFailed';

/** Props of the trusted-browsers part of the page. */
export interface TrustedBrowsersSectionProps {
  store: TrustedBrowsersStore;
  /** The page's toasts. */
  toast: Toast;
}

const TITLE_ID = 'security-browsers-title';

/**
 * "Trusted browsers": the browsers the smart lockout lets sign in while strangers are locked out, each with "forget
 * this browser" after a confirmation; what trust means when there is none.
 */
export const TrustedBrowsersSection = observer(function TrustedBrowsersSection({
  store,
  toast,
}: TrustedBrowsersSectionProps) {
  const intl = useIntl();
  const t: Translate = (id, values) => intl.formatMessage({ id }, values);
  // No failure to describe means a response ≥ 500 (the central notice said it) or a dismissed proof.
  const sayFailure = (f: Failure | undefined) => f && void toast.error(failureText(f, t));

  const forget = async (b: TrustedBrowser) => {
    const r = await store.forget(b.id);
    if (r.ok) void toast.success(t('security.browsers.forgotten'));
    else sayFailure(r.failure);
    // The focused button leaves with its row: the keyboard goes on from the part's title.
    if (!store.browsers.some((x) => x.id === b.id)) document.getElementById(TITLE_ID)?.focus();
  };

  const columns: ColumnsType<TrustedBrowser> = [
    {
      title: t('security.browsers.column.browser'),
      key: 'browser',
      render: (_, b) => (
        <span style={{ display: 'inline-flex', flexWrap: 'wrap', alignItems: 'center', gap: 8, minWidth: 0 }}>
          <Typography.Text strong data-testid="security-browser-name">
            {browserText(b.browser, t)}
          </Typography.Text>
          {b.current && (
            <Tag style={{ marginInlineEnd: 0 }} data-testid="security-browser-current">
              <FormattedMessage id="security.browsers.current" />
            </Tag>
          )}
        </span>
      ),
    },
    {
      title: t('security.browsers.column.firstUsed'),
      key: 'firstUsed',
      render: (_, b) => <LocalTime value={b.first_used_at} />,
    },
    {
      title: t('security.browsers.column.lastUsed'),
      key: 'lastUsed',
      render: (_, b) => <LocalTime value={b.last_used_at} />,
    },
    {
      title: t('security.browsers.column.actions'),
      key: 'actions',
      render: (_, b) => (
        <Popconfirm
          title={t('security.browsers.forgetConfirm', { browser: browserText(b.browser, t) })}
          description={t(b.current ? 'security.browsers.forgetCurrentHint' : 'security.browsers.forgetHint')}
          okText={t('security.browsers.forget')}
          cancelText={t('security.cancel')}
          okButtonProps={{ danger: true, loading: store.forgetting === b.id }}
          onConfirm={() => forget(b)}
        >
          <Button type="link" size="small" danger data-testid="security-browser-forget">
            <FormattedMessage id="security.browsers.forget" />
          </Button>
        </Popconfirm>
      ),
    },
  ];

  return (
    <section aria-labelledby={TITLE_ID} data-testid="security-browsers">
      <SectionHeading id={TITLE_ID} titleId="security.browsers.title" />
      <Typography.Paragraph type="secondary">
        <FormattedMessage id="security.browsers.description" />
      </Typography.Paragraph>
      {store.failed ? (
        <LoadFailed titleId="security.browsers.loadFailed" onRetry={() => void store.load()} />
      ) : (
        <ResponsiveTable<TrustedBrowser>
          data-testid="security-browser"
          rowKey="id"
          size="middle"
          loading={store.loading}
          columns={columns}
          dataSource={store.browsers}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{
            emptyText: (
              <Empty description={<span data-testid="security-browsers-empty">{t('security.browsers.empty')}</span>} />
            ),
          }}
        />
      )}
    </section>
  );
});
