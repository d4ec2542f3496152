import { CheckCircleFilled, StopOutlined } from '@ant-design/icons';
import { Alert, Button, Drawer, Empty, Skeleton, Tag, Typography } from 'antd';
import { observer } from 'mobx-react-lite';
import { useEffect, useMemo, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { CredentialKind } from '../../../schemas/credential-kinds';
import { CredentialUsesStore, type CredentialUseView } from '../credential-uses';
import { useStores } from '../stores/root';
import { LocalTime } from './LocalTime';
import { useNarrowLayout } from './BrowserState';
import { Truncated } from './Truncated';

/** Props of the usage timeline of one credential. */
export interface CredentialUsesDrawerProps {
  open: boolean;
  onClose: () => void;
  /** Which kind of credential. */
  kind: CredentialKind;
  /** The credential's id in its slice. */
  id: string;
  /** The credential's name as its owner knows it (the drawer's title). */
  name: string;
}

/** The words of each refusal reason (`CREDENTIAL_REFUSALS`); an unknown one is said as a plain refusal. */
const REASONS: Readonly<Record<string, string>> = {
  expired: 'core.credentialUses.reason.expired',
  'read-only': 'core.credentialUses.reason.readOnly',
  scope: 'core.credentialUses.reason.scope',
  'ip-whitelist': 'core.credentialUses.reason.ipWhitelist',
  'org-policy': 'core.credentialUses.reason.orgPolicy',
  'not-member': 'core.credentialUses.reason.notMember',
  'wrong-password': 'core.credentialUses.reason.wrongPassword',
  'not-yet': 'core.credentialUses.reason.notYet',
  revoked: 'core.credentialUses.reason.revoked',
  'password-change': 'core.credentialUses.reason.passwordChange',
};

/** One use: its outcome in words, when, what was done, from where and with which client. */
function UseRow({ use }: { use: CredentialUseView }) {
  const intl = useIntl();
  const reason =
    use.reason && Object.hasOwn(REASONS, use.reason) ? intl.formatMessage({ id: REASONS[use.reason] }) : null;
  return (
    <>
      <div style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 8 }}>
        {use.outcome === 'ok' ? (
          <Tag
            icon={<CheckCircleFilled />}
            styles={{ icon: { color: 'var(--ant-color-success)' } }}
            data-testid="use-outcome"
          >
            <FormattedMessage id="core.credentialUses.allowed" />
          </Tag>
        ) : (
          <Tag icon={<StopOutlined />} styles={{ icon: { color: 'var(--ant-color-error)' } }} data-testid="use-outcome">
            {reason ? (
              <FormattedMessage id="core.credentialUses.refusedBecause" values={{ reason }} />
            ) : (
              <FormattedMessage id="core.credentialUses.refused" />
            )}
          </Tag>
        )}
        <Typography.Text type="secondary" style={{ whiteSpace: 'nowrap' }}>
          <LocalTime value={use.at} />
        </Typography.Text>
      </div>
      <dl
        style={{
          display: 'grid',
          gridTemplateColumns: 'max-content minmax(0, 1fr)',
          gap: '2px 12px',
          margin: 0,
        }}
      >
        <dt style={{ color: 'var(--ant-color-text-secondary)' }}>
          <FormattedMessage id="core.credentialUses.action" />
        </dt>
        <dd style={{ margin: 0, minWidth: 0, overflowWrap: 'anywhere' }}>
          <Typography.Text code>{use.action}</Typography.Text>
        </dd>
        <dt style={{ color: 'var(--ant-color-text-secondary)' }}>
          <FormattedMessage id="core.credentialUses.address" />
        </dt>
        <dd style={{ margin: 0, minWidth: 0, overflowWrap: 'anywhere' }} data-testid="use-address">
          {use.address}
        </dd>
        <dt style={{ color: 'var(--ant-color-text-secondary)' }}>
          <FormattedMessage id="core.credentialUses.client" />
        </dt>
        <dd style={{ margin: 0, minWidth: 0 }}>
          {use.client ? (
            <Truncated text={use.client} maxWidth="100%" data-testid="use-client" />
          ) : (
            <Typography.Text type="secondary">
              <FormattedMessage id="core.credentialUses.clientUnknown" />
            </Typography.Text>
          )}
        </dd>
      </dl>
    </>
  );
}

/** The timeline: the first page, its empty and failed states, the rows, and "load older" while there are more. */
const Timeline = observer(function Timeline({ store }: { store: CredentialUsesStore }) {
  const list = useRef<HTMLOListElement>(null);
  // After an older page came, the keyboard goes on from its first row (the button may be gone: that was the end).
  const [focusFrom, setFocusFrom] = useState<number | null>(null);
  useEffect(() => {
    if (focusFrom === null) return;
    list.current?.querySelectorAll<HTMLElement>(':scope > li')[focusFrom]?.focus();
    setFocusFrom(null);
  }, [focusFrom]);

  if (!store.loaded) return <Skeleton active paragraph={{ rows: 4 }} />;
  if (store.failed)
    return (
      <Alert
        type="error"
        showIcon
        role="alert"
        title={<FormattedMessage id="core.credentialUses.failed" />}
        action={
          <Button size="small" onClick={() => void store.load()}>
            <FormattedMessage id="core.credentialUses.retry" />
          </Button>
        }
      />
    );
  if (!store.uses.length)
    return (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={<FormattedMessage id="core.credentialUses.empty" />}
        data-testid="credential-uses-empty"
      />
    );
  const older = async () => {
    const from = store.uses.length;
    await store.loadOlder();
    if (store.uses.length > from) setFocusFrom(from);
  };
  return (
    <>
      <ol
        ref={list}
        style={{ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: 12 }}
        aria-busy={store.loading}
      >
        {store.uses.map((use) => (
          <li
            key={use.id}
            tabIndex={-1}
            data-testid="credential-use"
            style={{
              display: 'grid',
              gap: 6,
              paddingBottom: 12,
              borderBottom: '1px solid var(--ant-color-split)',
              minWidth: 0,
            }}
          >
            <UseRow use={use} />
          </li>
        ))}
      </ol>
      <div style={{ marginTop: 16, display: 'grid', justifyItems: 'center', gap: 8 }}>
        {store.olderFailed && (
          <Typography.Text type="danger" role="alert">
            <FormattedMessage id="core.credentialUses.olderFailed" />
          </Typography.Text>
        )}
        {store.next ? (
          <Button onClick={() => void older()} loading={store.loadingOlder} data-testid="credential-uses-older">
            <FormattedMessage id="core.credentialUses.older" />
          </Button>
        ) : (
          <Typography.Text type="secondary">
            <FormattedMessage id="core.credentialUses.end" />
          </Typography.Text>
        )}
      </div>
    </>
  );
});

/**
 * A credential's usage timeline in a drawer (issue 42): each row is the first use of its minute from an address with
 * its outcome (allowed, or refused and why), newest first, 90 days kept; older pages on demand. The whole window on a
 * narrow one. Loaded on its own chunk when a list first opens it (LazyCredentialUsesDrawer).
 */
export function CredentialUsesDrawer({ open, onClose, kind, id, name }: CredentialUsesDrawerProps) {
  const { client } = useStores();
  const narrow = useNarrowLayout();
  const store = useMemo(() => new CredentialUsesStore(client, kind, id), [client, kind, id]);
  useEffect(() => {
    // Each opening reads the newest page: uses go on being recorded while the list is open.
    if (open) void store.load();
  }, [open, store]);
  return (
    <Drawer
      open={open}
      onClose={onClose}
      size={narrow ? '100%' : 560}
      title={<FormattedMessage id="core.credentialUses.title" values={{ name }} />}
      data-testid="credential-uses"
    >
      <Typography.Paragraph type="secondary">
        <FormattedMessage id="core.credentialUses.intro" />
      </Typography.Paragraph>
      <Timeline store={store} />
    </Drawer>
  );
}
