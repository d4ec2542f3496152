import { Button, Empty, Modal, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { observer } from 'mobx-react-lite';
import { useState, type CSSProperties } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { Locale } from '../../../src/core/edition';
import { formatFullDateTime, formatRelativeTime } from '../../../src/core/i18n/format';
import { failureText } from '../../../src/core/stores/failure';
import { LocalTime } from '../../../src/core/ui/LocalTime';
import { RelativeTime } from '../../../src/core/ui/RelativeTime';
import { ResponsiveTable } from '../../../src/core/ui/ResponsiveTable';
import { EXPIRING_WITHIN_DAYS, STALE_AFTER_DAYS } from '../../../schemas/credential-kinds';
import type { CredentialHealthItem, HealthMark } from '../contract';
import { HEALTH_KINDS, HEALTH_MARKS, type CredentialHealthStore, type HealthKind } from '../health-store';
import { SectionHeading } from './SectionHeading';
import { LoadFailed } from './LoadFailed';
import { browserText, type Toast, type Translate } from './words';

/** Props of the credential-health part of the page. */
export interface CredentialHealthSectionProps {
  store: CredentialHealthStore;
  /** The page's ticking clock, for "last used 3 days ago". */
  now: number;
  /** The page's language, for relative and full times. */
  locale: Locale;
  /** The page's toasts. */
  toast: Toast;
}

const TITLE_ID = 'security-health-title';
const [UNUSED_SHORT_DAYS, UNUSED_LONG_DAYS] = STALE_AFTER_DAYS;

/** Each kind's name. */
const KIND_IDS: Readonly<Record<HealthKind, string>> = {
  token: 'security.health.kind.token',
  'ssh-key': 'security.health.kind.sshKey',
  'packages-password': 'security.health.kind.packagesPassword',
  session: 'security.health.kind.session',
};

/** Each mark's words (with its number of days). */
const MARK_IDS: Readonly<Record<HealthMark, string>> = {
  'never-used': 'security.health.mark.neverUsed',
  'unused-30': 'security.health.mark.unused',
  'unused-90': 'security.health.mark.unused',
  expiring: 'security.health.mark.expiring',
  expired: 'security.health.mark.expired',
};
const MARK_VALUES: Readonly<Record<HealthMark, Record<string, number>>> = {
  'never-used': {},
  'unused-30': { days: UNUSED_SHORT_DAYS },
  'unused-90': { days: UNUSED_LONG_DAYS },
  expiring: { days: EXPIRING_WITHIN_DAYS },
  expired: {},
};

/**
 * A mark's colours, light and dark (antd's coloured tag text is below AA contrast on its ground): red for expired,
 * orange for what needs a look soon; "never used" alone is the plain tag.
 */
const RED: CSSProperties = {
  color: 'light-dark(#a8071a, #ffa39e)',
  background: 'light-dark(#fff1f0, #2a1215)',
  borderColor: 'light-dark(#ffa39e, #58181c)',
};
const ORANGE: CSSProperties = {
  color: 'light-dark(#873800, #ffc069)',
  background: 'light-dark(#fff7e6, #2b1d11)',
  borderColor: 'light-dark(#ffd591, #594214)',
};
const MARK_STYLES: Readonly<Record<HealthMark, CSSProperties>> = {
  expired: RED,
  'unused-90': ORANGE,
  'unused-30': ORANGE,
  expiring: ORANGE,
  'never-used': {},
};

/** A mark as a tag. */
function MarkTag({ mark, t }: { mark: HealthMark; t: Translate }) {
  return (
    <Tag style={{ marginInlineEnd: 0, ...MARK_STYLES[mark] }} data-testid="security-health-mark" data-mark={mark}>
      {t(MARK_IDS[mark], MARK_VALUES[mark])}
    </Tag>
  );
}

/** An item's name: a session is named by its browser, in the words of the sessions section ("Chrome 131 on Windows"). */
const itemName = (c: CredentialHealthItem, t: Translate) =>
  c.kind === 'session' ? browserText(c.browser ?? null, t) : c.name;

/**
 * "Credential health": every personal access token, SSH key, the artifact-repository password and session of the
 * account with its kind, marks (never used, unused for 30 or 90 days, expiring within 7 days, expired), last use and
 * expiry; counts of each mark, "nothing stale" when so, and "Revoke all stale" after a confirmation naming what goes
 * (the core's re-authentication dialog may ask for the password first). A card per item on a narrow window.
 */
export const CredentialHealthSection = observer(function CredentialHealthSection({
  store,
  now,
  locale,
  toast,
}: CredentialHealthSectionProps) {
  const intl = useIntl();
  const t: Translate = (id, values) => intl.formatMessage({ id }, values);
  const [confirming, setConfirming] = useState(false);

  const revoke = async () => {
    const r = await store.revokeStale();
    setConfirming(false);
    if (r.ok) {
      void toast.success(t('security.health.revoked', { count: r.result.revoked.length }));
      if (r.result.kept > 0) void toast.info(t('security.health.keptMeanwhile', { count: r.result.kept }));
      // The button leaves with the stale items: the keyboard goes on from the section's title.
      document.getElementById(TITLE_ID)?.focus();
    } else if (r.failure) void toast.error(failureText(r.failure, t));
  };

  const columns: ColumnsType<CredentialHealthItem> = [
    {
      title: t('security.health.column.credential'),
      key: 'credential',
      render: (_, c) => (
        // A width of its own: a long name with no space wraps here instead of widening the table past the page.
        <div style={{ display: 'grid', gap: 4, minWidth: 0, maxWidth: 420 }}>
          <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="security-health-kind">
            {t(KIND_IDS[c.kind])}
          </Typography.Text>
          <span style={{ display: 'inline-flex', flexWrap: 'wrap', alignItems: 'center', gap: 6, minWidth: 0 }}>
            <Typography.Text strong style={{ overflowWrap: 'anywhere' }} data-testid="security-health-name">
              {itemName(c, t)}
            </Typography.Text>
            {c.kind === 'session' && c.id === store.data.current_session && (
              <Tag style={{ marginInlineEnd: 0 }}>
                <FormattedMessage id="security.sessions.current" />
              </Tag>
            )}
            {HEALTH_MARKS.filter((m) => c.marks.includes(m)).map((m) => (
              <MarkTag key={m} mark={m} t={t} />
            ))}
          </span>
        </div>
      ),
    },
    {
      title: t('security.health.column.lastUsed'),
      key: 'lastUsed',
      render: (_, c) =>
        c.lastUse ? (
          <span style={{ overflowWrap: 'anywhere' }}>
            <RelativeTime
              value={c.lastUse.at}
              now={now}
              format={(at) => formatRelativeTime(c.lastUse!.at, locale, Math.max(at, Date.parse(c.lastUse!.at)))}
              title={() => formatFullDateTime(c.lastUse!.at, locale)}
            />
            {c.lastUse.address && (
              <Typography.Text type="secondary" style={{ display: 'block' }} title={c.lastUse.client ?? undefined}>
                {c.lastUse.address}
              </Typography.Text>
            )}
          </span>
        ) : (
          <Typography.Text type="secondary">
            <FormattedMessage id="security.health.never" />
          </Typography.Text>
        ),
    },
    {
      title: t('security.health.column.created'),
      key: 'created',
      render: (_, c) => <LocalTime value={c.createdAt} />,
    },
    {
      title: t('security.health.column.expires'),
      key: 'expires',
      render: (_, c) =>
        c.expiresAt ? (
          <LocalTime value={c.expiresAt} />
        ) : (
          <Typography.Text type="secondary">
            <FormattedMessage id="security.health.noExpiry" />
          </Typography.Text>
        ),
    },
  ];

  const stale = store.stale;
  const counted = HEALTH_MARKS.filter((m) => store.counts[m] > 0);
  const settled = store.loaded && !store.failed && !store.loading;
  return (
    <section aria-labelledby={TITLE_ID} data-testid="security-health">
      <SectionHeading
        id={TITLE_ID}
        titleId="security.health.title"
        action={
          settled &&
          stale.length > 0 && (
            <Button danger onClick={() => setConfirming(true)} data-testid="security-health-revoke">
              <FormattedMessage id="security.health.revokeStale" values={{ count: stale.length }} />
            </Button>
          )
        }
      />
      <Typography.Paragraph type="secondary">
        <FormattedMessage id="security.health.description" values={{ days: UNUSED_SHORT_DAYS }} />
      </Typography.Paragraph>
      {settled && store.items.length > 0 && (
        <div
          style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 8, marginBottom: 12 }}
          data-testid="security-health-summary"
        >
          {stale.length === 0 ? (
            <Typography.Text data-testid="security-health-nothing-stale">
              <FormattedMessage id="security.health.nothingStale" values={{ days: UNUSED_SHORT_DAYS }} />
            </Typography.Text>
          ) : (
            <Typography.Text strong data-testid="security-health-stale-count">
              <FormattedMessage id="security.health.staleCount" values={{ count: stale.length }} />
            </Typography.Text>
          )}
          {counted.map((m) => (
            <Tag key={m} style={{ marginInlineEnd: 0, ...MARK_STYLES[m] }} data-testid="security-health-count">
              {t('security.health.markCount', { mark: t(MARK_IDS[m], MARK_VALUES[m]), count: store.counts[m] })}
            </Tag>
          ))}
        </div>
      )}
      {store.failed ? (
        <LoadFailed titleId="security.health.loadFailed" onRetry={() => void store.load()} />
      ) : (
        <ResponsiveTable<CredentialHealthItem>
          data-testid="security-health-item"
          rowKey={(c) => `${c.kind}:${c.id}`}
          size="middle"
          loading={store.loading}
          columns={columns}
          dataSource={store.items}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: <Empty description={t('security.health.empty')} /> }}
        />
      )}
      <Modal
        open={confirming}
        title={t('security.health.confirm.title', { count: stale.length })}
        okText={t('security.health.confirm.ok')}
        cancelText={t('security.cancel')}
        // An outlined danger button: white text on antd's dark-shade red (a solid danger button) is below AA contrast.
        okButtonProps={{ danger: true, type: 'default', loading: store.revoking }}
        onOk={revoke}
        onCancel={() => setConfirming(false)}
        destroyOnHidden
      >
        <Typography.Paragraph>
          <FormattedMessage id="security.health.confirm.description" />
        </Typography.Paragraph>
        <div style={{ maxHeight: '40vh', overflowY: 'auto' }}>
          {HEALTH_KINDS.map((kind) => {
            const going = stale.filter((c) => c.kind === kind);
            return (
              going.length > 0 && (
                <div key={kind} style={{ marginBottom: 8 }}>
                  <Typography.Text strong>
                    {t('security.health.confirm.kind', { kind: t(KIND_IDS[kind]), count: going.length })}
                  </Typography.Text>
                  <ul style={{ margin: '4px 0 0', paddingInlineStart: 20 }} data-testid="security-health-going">
                    {going.map((c) => (
                      <li key={c.id} style={{ overflowWrap: 'anywhere' }}>
                        {itemName(c, t)}
                      </li>
                    ))}
                  </ul>
                </div>
              )
            );
          })}
        </div>
      </Modal>
    </section>
  );
});
