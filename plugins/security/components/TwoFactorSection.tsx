import {
  CheckCircleFilled,
  ExclamationCircleFilled,
  KeyOutlined,
  MobileOutlined,
  SafetyCertificateOutlined,
} from '@ant-design/icons';
import { Alert, Button, Popconfirm, Spin, Tag, Typography } from 'antd';
import { reaction } from 'mobx';
import { observer } from 'mobx-react-lite';
import { useEffect, useState, type CSSProperties, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { Locale } from '../../../src/core/edition';
import { formatDateTime, formatFullDateTime, formatRelativeTime } from '../../../src/core/i18n/format';
import { failureText, type Failure } from '../../../src/core/stores/failure';
import { useStores } from '../../../src/core/stores/root';
import { lazyOverlay } from '../../../src/core/ui/lazyOverlay';
import { LocalTime } from '../../../src/core/ui/LocalTime';
import { RelativeTime } from '../../../src/core/ui/RelativeTime';
import { RECOVERY_CODE_COUNT, WEBAUTHN_CREDENTIALS_MAX } from '../../../schemas/second-factor-limits';
import type { Passkey } from '../contract';
import { browserSupportsPasskeys, type SessionsStore, type TwoFactorStore } from '../store';
import { LoadFailed } from './LoadFailed';
import { SectionHeading } from './SectionHeading';
import type { Toast, Translate } from './words';

/** The app's setup dialog, loaded when it first opens. */
const TotpSetupDialog = lazyOverlay(() =>
  import(/* webpackChunkName: "plugin-security-dialogs" */ './TotpSetupDialog').then((m) => m.TotpSetupDialog),
);
/** The one-time display of recovery codes, loaded when it first opens. */
const RecoveryCodesDialog = lazyOverlay(() =>
  import(/* webpackChunkName: "plugin-security-dialogs" */ './RecoveryCodesDialog').then((m) => m.RecoveryCodesDialog),
);
/** Naming a new passkey, or renaming one, loaded when it first opens. */
const PasskeyNameDialog = lazyOverlay(() =>
  import(/* webpackChunkName: "plugin-security-dialogs" */ './PasskeyNameDialog').then((m) => m.PasskeyNameDialog),
);

/** Props of the two-factor part of the page. */
export interface TwoFactorSectionProps {
  store: TwoFactorStore;
  /** The account's sessions: after a change, the part offers to sign out the others. */
  sessions: SessionsStore;
  /** The page's ticking clock, for "last used 3 days ago". */
  now: number;
  /** The page's language, for relative and full times. */
  locale: Locale;
  /** The page's toasts. */
  toast: Toast;
}

const TITLE_ID = 'security-two-factor-title';

/** The passkey name dialog: open or not, the passkey it renames (null: adds one), a count that remounts it. */
interface NameDialog {
  open: boolean;
  passkey: Passkey | null;
  seq: number;
}

/**
 * One way to sign in a second time: its icon, name and state, what it is, a detail (since when, why not), its actions
 * beside (or, on a narrow window, under) the text, and what it lists below.
 */
function MethodRow(props: {
  icon: ReactNode;
  titleId: string;
  descriptionId: string;
  state?: ReactNode;
  details?: ReactNode;
  actions?: ReactNode;
  children?: ReactNode;
  testId: string;
}) {
  const headingId = `${props.testId}-title`;
  return (
    <div
      role="group"
      aria-labelledby={headingId}
      data-testid={props.testId}
      style={{
        display: 'flex',
        gap: 12,
        alignItems: 'flex-start',
        padding: '12px 0',
        borderTop: '1px solid var(--ant-color-split, rgba(5, 5, 5, 0.06))',
      }}
    >
      <span aria-hidden style={{ fontSize: 20, lineHeight: '24px', flex: '0 0 auto' }}>
        {props.icon}
      </span>
      <div style={{ flex: '1 1 auto', minWidth: 0 }}>
        <div style={{ display: 'flex', gap: '8px 12px', alignItems: 'flex-start', flexWrap: 'wrap' }}>
          <div style={{ flex: '1 1 240px', minWidth: 0 }}>
            <Typography.Title id={headingId} level={3} style={{ fontSize: 14, margin: 0, lineHeight: '24px' }}>
              <FormattedMessage id={props.titleId} />
              {props.state}
            </Typography.Title>
            <Typography.Text type="secondary" style={{ display: 'block' }}>
              <FormattedMessage id={props.descriptionId} />
            </Typography.Text>
            {props.details && <div style={{ marginTop: 4 }}>{props.details}</div>}
          </div>
          {props.actions && (
            <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap', flex: '0 0 auto' }}>{props.actions}</div>
          )}
        </div>
        {props.children && <div style={{ marginTop: 8 }}>{props.children}</div>}
      </div>
    </div>
  );
}

/** The icon of a state's tone: its colour is the icon's only (coloured tag text is below AA contrast on its ground). */
const TONE_ICONS = {
  success: <CheckCircleFilled style={{ color: 'var(--ant-color-success, #52c41a)' }} />,
  warning: <ExclamationCircleFilled style={{ color: 'var(--ant-color-warning, #faad14)' }} />,
} as const;

/** A state as a tag ("On", "Set up", "2 of 10 left"), its tone told by an icon beside the text. */
function StateTag(props: {
  tone?: keyof typeof TONE_ICONS;
  children: ReactNode;
  testId: string;
  style?: CSSProperties;
}) {
  return (
    <Tag
      style={{ marginInlineStart: 8, verticalAlign: 'text-bottom', ...props.style }}
      data-testid={props.testId}
      data-tone={props.tone}
    >
      {props.tone && (
        <span aria-hidden style={{ marginInlineEnd: 4 }}>
          {TONE_ICONS[props.tone]}
        </span>
      )}
      {props.children}
    </Tag>
  );
}

/**
 * "Two-factor authentication": whether sign-in asks for a second step, an organisation's deadline, the authenticator
 * app (set up, remove), passkeys and security keys (add, rename, remove), the recovery codes left (a warning when few,
 * new ones), and after any change the offer to sign out the other sessions. Every change may first ask the core's
 * re-authentication dialog for the password.
 */
export const TwoFactorSection = observer(function TwoFactorSection({
  store,
  sessions,
  now,
  locale,
  toast,
}: TwoFactorSectionProps) {
  const intl = useIntl();
  const { session } = useStores();
  const t: Translate = (id, values) => intl.formatMessage({ id }, values);
  // No failure to describe means a response ≥ 500 (the central notice said it) or a dismissed proof.
  const sayFailure = (f: Failure | undefined) => f && void toast.error(failureText(f, t));
  // A focused button that left with its row: the keyboard goes on from the part's title.
  // After a dialog, also when the focus stayed on the closed dialog (or its gone trigger: "Set up" becomes "Change").
  const refocus = () => {
    const active = document.activeElement;
    if (!active || active === document.body || !active.isConnected || active.getClientRects().length === 0)
      document.getElementById(TITLE_ID)?.focus();
  };
  const refocusAfterDialog = () => setTimeout(refocus, 0);
  // The passkey stays while the dialog closes, so its title does not change during the animation.
  // Two-factor turned on or off while an organization asks for it: the shell's notice and the organization's
  // sections follow at once (the service decides afresh), not at the next page load.
  useEffect(
    () =>
      reaction(
        () => ({ on: store.enabled, known: store.loaded && !store.failed }),
        (now, before) => {
          // A change of the account's factors, not the first load (nor a failed one) telling what they were.
          if (!before.known || !now.known || now.on === before.on) return;
          const asked =
            !!store.data.required_by ||
            session.organizationNotice === 'second-factor-required' ||
            !!session.organization?.second_factor_deadline;
          if (asked) void session.load();
        },
      ),
    [store, session],
  );
  const [nameDialog, setNameDialog] = useState<NameDialog>({ open: false, passkey: null, seq: 0 });
  const openName = (passkey: Passkey | null) => setNameDialog((d) => ({ open: true, passkey, seq: d.seq + 1 }));

  const state = store.data;
  const enabled = store.enabled;
  const factors = (state.totp ? 1 : 0) + state.passkeys.length;
  /**
   * The confirmation of removing a factor. The last one turns two-factor off (it says so); while an organisation
   * requires a factor the service refuses that, so the confirmation says why instead of offering to remove.
   */
  const removeConfirm = (title: string, hint: string, loading: boolean, remove: () => Promise<void>) => {
    const last = factors === 1;
    if (last && state.required_by)
      return {
        title: t('security.twoFactor.required.overdue', { org: state.required_by.org }),
        description: t('security.twoFactor.lastRequired'),
        okText: t('security.twoFactor.ok'),
        showCancel: false,
      };
    return {
      title,
      description: last ? t('security.twoFactor.last') : hint,
      okText: t('security.twoFactor.remove'),
      cancelText: t('security.cancel'),
      okButtonProps: { danger: true, loading },
      onConfirm: remove,
    };
  };

  const setUpTotp = async () => {
    const r = await store.startTotp();
    if (!r.ok) sayFailure(r.failure);
  };
  const removeTotp = async () => {
    const r = await store.removeTotp();
    if (r.ok) void toast.success(t('security.twoFactor.totp.removed'));
    else sayFailure(r.failure);
    refocus();
  };
  const removePasskey = async (p: Passkey) => {
    const r = await store.removePasskey(p.id);
    if (r.ok) void toast.success(t('security.twoFactor.passkeys.removed', { name: p.name }));
    else sayFailure(r.failure);
    refocus();
  };
  const newCodes = async () => {
    const r = await store.newRecoveryCodes();
    if (!r.ok) sayFailure(r.failure);
  };
  const endOthers = async () => {
    const r = await sessions.endOthers();
    if (r.ok) {
      store.dismissChanged();
      void toast.success(t('security.sessions.endedOthers', { count: r.ended }));
      refocus();
    } else sayFailure(r.failure);
  };

  const supported = browserSupportsPasskeys();
  const full = state.passkeys.length >= WEBAUTHN_CREDENTIALS_MAX;
  const others = sessions.others.length;
  const required = state.required_by;
  const overdue = required ? Date.parse(required.deadline) <= now : false;
  // The shell's notice above the settings already names the current organization's requirement: said once.
  const shellSaysIt =
    !!required &&
    ((session.organizationNotice === 'second-factor-required' &&
      (session.organizationNoticeName ?? session.organization?.name) === required.org) ||
      (!!session.organization?.second_factor_deadline && session.organization.name === required.org));

  const body = (
    <>
      {store.changed && others > 0 && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          data-testid="security-two-factor-end-others"
          title={t('security.twoFactor.endOthers.title')}
          description={t('security.twoFactor.endOthers.hint', { count: others })}
          action={
            <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap' }}>
              <Button size="small" danger loading={sessions.endingOthers} onClick={() => void endOthers()}>
                <FormattedMessage id="security.sessions.endOthers" />
              </Button>
              <Button size="small" onClick={() => store.dismissChanged()}>
                <FormattedMessage id="security.twoFactor.endOthers.notNow" />
              </Button>
            </div>
          }
        />
      )}
      {required && !enabled && !shellSaysIt && (
        <Alert
          type={overdue ? 'error' : 'warning'}
          showIcon
          style={{ marginBottom: 12 }}
          data-testid="security-two-factor-required"
          title={
            overdue
              ? t('security.twoFactor.required.overdue', { org: required.org })
              : intl.formatMessage(
                  { id: 'security.twoFactor.required.by' },
                  { org: required.org, deadline: formatDateTime(required.deadline) },
                )
          }
          description={t('security.twoFactor.required.hint', { org: required.org })}
        />
      )}
      <MethodRow
        testId="security-totp"
        icon={<MobileOutlined />}
        titleId="security.twoFactor.totp.title"
        descriptionId="security.twoFactor.totp.description"
        details={
          state.totp && (
            <Typography.Text type="secondary" data-testid="security-totp-since">
              <FormattedMessage
                id="security.twoFactor.totp.since"
                values={{ date: <LocalTime key="since" value={state.totp.since} /> }}
              />
            </Typography.Text>
          )
        }
        state={
          state.totp && (
            <StateTag tone="success" testId="security-totp-state">
              <FormattedMessage id="security.twoFactor.configured" />
            </StateTag>
          )
        }
        actions={
          state.totp ? (
            <>
              <Button loading={store.starting} onClick={() => void setUpTotp()} data-testid="security-totp-change">
                <FormattedMessage id="security.twoFactor.totp.change" />
              </Button>
              <Popconfirm
                {...removeConfirm(
                  t('security.twoFactor.totp.removeConfirm'),
                  t('security.twoFactor.totp.removeHint'),
                  store.removingTotp,
                  removeTotp,
                )}
              >
                <Button danger data-testid="security-totp-remove">
                  <FormattedMessage id="security.twoFactor.remove" />
                </Button>
              </Popconfirm>
            </>
          ) : (
            <Button
              type={enabled ? 'default' : 'primary'}
              loading={store.starting}
              onClick={() => void setUpTotp()}
              data-testid="security-totp-set-up"
            >
              <FormattedMessage id="security.twoFactor.totp.setUp" />
            </Button>
          )
        }
      />
      <MethodRow
        testId="security-passkeys"
        icon={<KeyOutlined />}
        titleId="security.twoFactor.passkeys.title"
        descriptionId="security.twoFactor.passkeys.description"
        details={
          (!supported || full || state.passkeys.length === 0) && (
            <>
              {(!supported || full) && (
                <Typography.Text type="secondary" id="security-passkeys-why" style={{ display: 'block' }}>
                  {full
                    ? t('security.twoFactor.passkeys.full', { max: WEBAUTHN_CREDENTIALS_MAX })
                    : t('security.twoFactor.passkeys.unsupported')}
                </Typography.Text>
              )}
              {state.passkeys.length === 0 && (
                <Typography.Text type="secondary" data-testid="security-passkeys-empty">
                  <FormattedMessage id="security.twoFactor.passkeys.empty" />
                </Typography.Text>
              )}
            </>
          )
        }
        state={
          state.passkeys.length > 0 && (
            <StateTag tone="success" testId="security-passkeys-state">
              <FormattedMessage id="security.twoFactor.passkeys.count" values={{ count: state.passkeys.length }} />
            </StateTag>
          )
        }
        actions={
          <Button
            disabled={!supported || full}
            loading={store.adding}
            onClick={() => openName(null)}
            aria-describedby={!supported || full ? 'security-passkeys-why' : undefined}
            data-testid="security-passkey-add"
          >
            <FormattedMessage id="security.twoFactor.passkeys.add" />
          </Button>
        }
      >
        {state.passkeys.length > 0 && (
          <ul
            aria-label={t('security.twoFactor.passkeys.title')}
            style={{ listStyle: 'none', padding: 0, margin: 0 }}
            data-testid="security-passkey-list"
          >
            {state.passkeys.map((p) => (
              <li
                key={p.id}
                data-testid="security-passkey"
                data-passkey-id={p.id}
                style={{
                  display: 'flex',
                  flexWrap: 'wrap',
                  alignItems: 'center',
                  gap: '4px 12px',
                  padding: '8px 0',
                  borderTop: '1px dashed var(--ant-color-split, rgba(5, 5, 5, 0.06))',
                }}
              >
                <div style={{ flex: '1 1 220px', minWidth: 0 }}>
                  <Typography.Text strong style={{ overflowWrap: 'anywhere' }} data-testid="security-passkey-name">
                    {p.name}
                  </Typography.Text>
                  <Tag style={{ marginInlineStart: 8 }}>
                    <FormattedMessage
                      id={p.discoverable ? 'security.twoFactor.passkeys.passkey' : 'security.twoFactor.passkeys.key'}
                    />
                  </Tag>
                  <Typography.Text type="secondary" style={{ display: 'block' }}>
                    <FormattedMessage
                      id="security.twoFactor.passkeys.added"
                      values={{ date: <LocalTime key="added" value={p.created_at} date /> }}
                    />
                    {' · '}
                    {p.last_used_at ? (
                      <FormattedMessage
                        id="security.twoFactor.passkeys.lastUsed"
                        values={{
                          when: (
                            <RelativeTime
                              key="used"
                              value={p.last_used_at}
                              now={now}
                              format={(at) =>
                                formatRelativeTime(p.last_used_at!, locale, Math.max(at, Date.parse(p.last_used_at!)))
                              }
                              title={() => formatFullDateTime(p.last_used_at!, locale)}
                            />
                          ),
                        }}
                      />
                    ) : (
                      <FormattedMessage id="security.twoFactor.passkeys.neverUsed" />
                    )}
                  </Typography.Text>
                </div>
                <div style={{ display: 'flex', gap: 4, flex: '0 0 auto' }}>
                  <Button
                    type="link"
                    size="small"
                    disabled={store.editing === p.id}
                    onClick={() => openName(p)}
                    aria-label={t('security.twoFactor.passkeys.renameLabel', { name: p.name })}
                    data-testid="security-passkey-rename"
                  >
                    <FormattedMessage id="security.twoFactor.passkeys.rename" />
                  </Button>
                  <Popconfirm
                    {...removeConfirm(
                      t('security.twoFactor.passkeys.removeConfirm', { name: p.name }),
                      t('security.twoFactor.passkeys.removeHint'),
                      store.editing === p.id,
                      () => removePasskey(p),
                    )}
                  >
                    <Button
                      type="link"
                      size="small"
                      danger
                      aria-label={t('security.twoFactor.passkeys.removeLabel', { name: p.name })}
                      data-testid="security-passkey-remove"
                    >
                      <FormattedMessage id="security.twoFactor.remove" />
                    </Button>
                  </Popconfirm>
                </div>
              </li>
            ))}
          </ul>
        )}
      </MethodRow>
      <MethodRow
        testId="security-recovery-codes"
        icon={<SafetyCertificateOutlined />}
        titleId="security.twoFactor.codes.title"
        descriptionId="security.twoFactor.codes.description"
        details={
          !enabled && (
            <Typography.Text type="secondary">
              <FormattedMessage id="security.twoFactor.codes.none" />
            </Typography.Text>
          )
        }
        state={
          enabled && (
            <StateTag tone={store.codesLow ? 'warning' : undefined} testId="security-recovery-codes-left">
              <FormattedMessage
                id="security.twoFactor.codes.left"
                values={{ left: state.recovery_codes_left, total: RECOVERY_CODE_COUNT }}
              />
            </StateTag>
          )
        }
        actions={
          enabled && (
            <Popconfirm
              title={t('security.twoFactor.codes.newConfirm')}
              description={t('security.twoFactor.codes.newHint')}
              okText={t('security.twoFactor.codes.new')}
              cancelText={t('security.cancel')}
              okButtonProps={{ loading: store.regenerating }}
              onConfirm={newCodes}
            >
              <Button type={store.codesLow ? 'primary' : 'default'} data-testid="security-recovery-codes-new">
                <FormattedMessage id="security.twoFactor.codes.new" />
              </Button>
            </Popconfirm>
          )
        }
      >
        {store.codesLow && (
          <Alert
            type={state.recovery_codes_left === 0 ? 'error' : 'warning'}
            showIcon
            data-testid="security-recovery-codes-low"
            title={t('security.twoFactor.codes.low', { left: state.recovery_codes_left })}
          />
        )}
      </MethodRow>
    </>
  );

  return (
    <section aria-labelledby={TITLE_ID} data-testid="security-two-factor">
      <SectionHeading
        id={TITLE_ID}
        titleId="security.twoFactor.title"
        action={
          store.loaded &&
          !store.failed && (
            <StateTag
              tone={enabled ? 'success' : undefined}
              style={{ marginInlineStart: 0, marginInlineEnd: 0 }}
              testId="security-two-factor-status"
            >
              <FormattedMessage id={enabled ? 'security.twoFactor.on' : 'security.twoFactor.off'} />
            </StateTag>
          )
        }
      />
      <Typography.Paragraph type="secondary">
        <FormattedMessage id="security.twoFactor.description" />
      </Typography.Paragraph>
      {store.failed ? (
        <LoadFailed titleId="security.twoFactor.loadFailed" onRetry={() => void store.load()} />
      ) : !store.loaded ? (
        <Spin spinning description={t('security.twoFactor.loading')}>
          <div aria-busy="true" style={{ minHeight: 96 }} data-testid="security-two-factor-loading" />
        </Spin>
      ) : (
        body
      )}
      <TotpSetupDialog open={!!store.setup} store={store} toast={toast} afterClose={refocusAfterDialog} />
      <RecoveryCodesDialog open={!!store.codes} store={store} toast={toast} afterClose={refocusAfterDialog} />
      <PasskeyNameDialog
        key={nameDialog.seq}
        open={nameDialog.open}
        passkey={nameDialog.passkey}
        store={store}
        toast={toast}
        onClose={() => setNameDialog((d) => ({ ...d, open: false }))}
        afterClose={refocusAfterDialog}
      />
    </section>
  );
});
