import { Alert, Descriptions, Form, Modal, Radio, Spin, Tag, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { observer } from 'mobx-react-lite';
import { useEffect, useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { DATE_FORMAT, DATE_TIME_FORMAT } from '../../../src/core/i18n/format';
import type { AccessToken } from '../contract';
import { TOKEN_GRACE_PRESETS_MINUTES } from '../limits';
import { droppedGrants } from '../scopes';
import type { AccessTokensStore } from '../store';
import { ExpiryPicker, expiryOf, type ExpiryChoice } from './ExpiryPicker';

/** Regenerate a live token, or re-create an expired one. */
export type RenewMode = 'regenerate' | 'recreate';

/** Props of the regenerate / re-create dialog. */
export interface TokenRenewDialogProps {
  store: AccessTokensStore;
  open: boolean;
  /** The token to renew (kept while the dialog closes). Mount a new dialog (a new key) for each opening. */
  token: AccessToken | null;
  mode: RenewMode;
  onClose: () => void;
  /** Calls the service; resolves true when the dialog may close (the new secret is then in the one-time display). */
  onSubmit: (values: { expiresAt: string; graceMinutes: number }) => Promise<boolean>;
}

/** The preset picked when the dialog opens: 30 days, as the create drawer's second button. */
const DEFAULT_CHOICE: ExpiryChoice = '30';

/** When the old secret stops: now (no grace), or the grace's end, never past its own expiry. */
function stopsAt(token: AccessToken, graceMinutes: number, now: number): number {
  const end = now + graceMinutes * 60_000;
  return token.expires_at ? Math.min(end, Date.parse(token.expires_at)) : end;
}

/** A list of grants as tags (the list's own look). */
function Grants({ grants }: { grants: string[] }) {
  return (
    <span style={{ display: 'flex', flexWrap: 'wrap', gap: 4 }}>
      {grants.map((g) => (
        <Tag key={g} style={{ marginInlineEnd: 0 }}>
          {g}
        </Tag>
      ))}
    </span>
  );
}

/**
 * Regenerate (a live token): the new secret's expiry and how long the old secret keeps working, with what that means
 * said before the member confirms. Re-create (an expired token): what changes (the expiry, the scopes the catalogue
 * no longer offers) before it is made again. Every part is a native control the keyboard reaches in order.
 */
export const TokenRenewDialog = observer(function TokenRenewDialog({
  store,
  open,
  token,
  mode,
  onClose,
  onSubmit,
}: TokenRenewDialogProps) {
  const intl = useIntl();
  const [choice, setChoice] = useState<ExpiryChoice | undefined>(DEFAULT_CHOICE);
  const [date, setDate] = useState<Dayjs | null>(null);
  const [grace, setGrace] = useState<number>(TOKEN_GRACE_PRESETS_MINUTES[0]);
  // Re-creating needs the catalogue to tell what is left out. The defaults come with the mount: the caller mounts a
  // new dialog for each opening. (Set again by an effect after opening, they undid a choice made before it ran.)
  useEffect(() => {
    if (open && mode === 'recreate') void store.loadScopes();
  }, [open, mode, store]);
  const expiresAt = useMemo(() => expiryOf(choice, date), [choice, date]);
  const dropped = useMemo(
    () => (token && mode === 'recreate' ? droppedGrants(store.scopes, token.token_scopes) : []),
    [token, mode, store.scopes],
  );
  if (!token) return null;
  const recreate = mode === 'recreate';
  const kept = token.token_scopes.filter((g) => !dropped.includes(g));
  const submit = async () => {
    if (!expiresAt) return;
    if (await onSubmit({ expiresAt, graceMinutes: recreate ? 0 : grace })) onClose();
  };
  const when = (iso: string | number, format = DATE_TIME_FORMAT) => dayjs(iso).format(format);
  const oldStops = stopsAt(token, grace, Date.now());

  return (
    <Modal
      open={open}
      title={
        <FormattedMessage
          id={recreate ? 'access-tokens.renew.recreateTitle' : 'access-tokens.renew.regenerateTitle'}
          values={{ name: token.name }}
        />
      }
      okText={
        <span data-testid="token-renew-ok">
          <FormattedMessage id={recreate ? 'access-tokens.renew.recreateOk' : 'access-tokens.renew.regenerateOk'} />
        </span>
      }
      cancelText={<FormattedMessage id="access-tokens.form.cancel" />}
      okButtonProps={{ disabled: !expiresAt, danger: !recreate }}
      confirmLoading={store.saving}
      onOk={() => void submit()}
      onCancel={onClose}
      width={560}
      destroyOnHidden
    >
      <Form layout="vertical" onFinish={() => void submit()} data-testid="token-renew">
        <Typography.Paragraph>
          <FormattedMessage
            id={recreate ? 'access-tokens.renew.recreateIntro' : 'access-tokens.renew.regenerateIntro'}
          />
        </Typography.Paragraph>
        <Form.Item
          label={<span id="token-renew-expiry-label">{intl.formatMessage({ id: 'access-tokens.form.expiry' })}</span>}
          required
          extra={
            expiresAt ? (
              <FormattedMessage id="access-tokens.form.expiresOn" values={{ date: when(expiresAt, DATE_FORMAT) }} />
            ) : undefined
          }
        >
          <ExpiryPicker
            labelledBy="token-renew-expiry-label"
            choice={choice}
            date={date}
            onChoice={setChoice}
            onDate={setDate}
          />
        </Form.Item>
        {recreate ? (
          <Descriptions
            size="small"
            column={1}
            layout="vertical"
            title={<FormattedMessage id="access-tokens.renew.changes" />}
            items={[
              {
                key: 'expiry',
                label: <FormattedMessage id="access-tokens.renew.expiry" />,
                children: (
                  <FormattedMessage
                    id="access-tokens.renew.expiryChange"
                    values={{
                      before: token.expires_at ? when(token.expires_at) : '-',
                      after: expiresAt ? when(expiresAt, DATE_FORMAT) : '-',
                    }}
                  />
                ),
              },
              {
                key: 'kept',
                label: <FormattedMessage id="access-tokens.renew.keptScopes" />,
                children: store.scopesLoading ? <Spin size="small" /> : <Grants grants={kept} />,
              },
              {
                key: 'dropped',
                label: <FormattedMessage id="access-tokens.renew.droppedScopes" />,
                children: store.scopesFailed ? (
                  <FormattedMessage id="access-tokens.renew.droppedUnknown" />
                ) : dropped.length ? (
                  <span data-testid="token-renew-dropped">
                    <Grants grants={dropped} />
                  </span>
                ) : (
                  <FormattedMessage id="access-tokens.renew.droppedNone" />
                ),
              },
              {
                key: 'secret',
                label: <FormattedMessage id="access-tokens.renew.secret" />,
                children: <FormattedMessage id="access-tokens.renew.secretNew" />,
              },
            ]}
          />
        ) : (
          <>
            <Form.Item
              label={
                <span id="token-renew-grace-label">{intl.formatMessage({ id: 'access-tokens.renew.grace' })}</span>
              }
            >
              <Radio.Group
                aria-labelledby="token-renew-grace-label"
                value={grace}
                onChange={(e) => setGrace(e.target.value as number)}
                options={TOKEN_GRACE_PRESETS_MINUTES.map((minutes) => ({
                  value: minutes,
                  label: intl.formatMessage({ id: 'access-tokens.renew.graceOption' }, { hours: minutes / 60 }),
                }))}
              />
            </Form.Item>
            <Alert
              type="warning"
              showIcon
              data-testid="token-renew-warning"
              title={
                grace === 0 ? (
                  <FormattedMessage id="access-tokens.renew.stopsNow" />
                ) : (
                  <FormattedMessage id="access-tokens.renew.stopsAt" values={{ time: when(oldStops) }} />
                )
              }
              description={<FormattedMessage id="access-tokens.renew.updateClients" />}
            />
          </>
        )}
      </Form>
    </Modal>
  );
});
