import { Alert, Button, Checkbox, Modal, Typography } from 'antd';
import { observer } from 'mobx-react-lite';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router-dom';
import { failureText } from '../../../src/core/stores/failure';
import type { NotMeResult } from '../contract';
import type { SecurityStore } from '../store';

/** Where the password is changed (the profile section). */
export const CHANGE_PASSWORD_PATH = '/users/settings/profile';

/** What was done to each kind of credential, as a sentence with its count. */
const CREDENTIAL_DONE_IDS: Readonly<Record<string, string>> = {
  token: 'security.notMe.done.tokens',
  'ssh-key': 'security.notMe.done.sshKeys',
  'packages-password': 'security.notMe.done.packagesPassword',
};

/** Props of the "this wasn't me" dialog. Mount with a new `key` per opening, so it starts afresh. */
export interface NotMeDialogProps {
  open: boolean;
  store: SecurityStore;
  onClose(): void;
}

/**
 * "This wasn't me": says what it does (signs out every other session, revokes every personal access token, resets
 * the artifact repository password, optionally locks the account until an administrator unlocks it), does it, then
 * says what was done.
 */
export const NotMeDialog = observer(function NotMeDialog({ open, store, onClose }: NotMeDialogProps) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const [lock, setLock] = useState(false);
  const [failure, setFailure] = useState<string>();
  const [result, setResult] = useState<NotMeResult | null>(null);

  const submit = async () => {
    setFailure(undefined);
    const r = await store.notMe(lock);
    if (r.ok) setResult(r.result);
    // No failure to show: a response ≥ 500 (the central notice said it) or a proof the person dismissed.
    else if (r.failure) setFailure(failureText(r.failure, t));
  };

  const footer = result
    ? [
        <Button key="close" type="primary" onClick={onClose} data-testid="security-not-me-close">
          <FormattedMessage id="security.notMe.close" />
        </Button>,
      ]
    : [
        <Button key="cancel" onClick={onClose}>
          <FormattedMessage id="security.cancel" />
        </Button>,
        <Button
          key="ok"
          type="primary"
          danger
          loading={store.saving}
          onClick={() => void submit()}
          data-testid="security-not-me-confirm"
        >
          <FormattedMessage id="security.notMe.confirm" />
        </Button>,
      ];

  return (
    <Modal
      open={open}
      title={<FormattedMessage id="security.notMe.title" />}
      onCancel={onClose}
      footer={footer}
      width={560}
      data-testid="security-not-me-dialog"
    >
      {result ? (
        <div data-testid="security-not-me-result">
          <Alert type="success" showIcon title={t('security.notMe.done.title')} style={{ marginBottom: 12 }} />
          <ul style={{ paddingInlineStart: 20, margin: '0 0 12px' }}>
            <li>
              <FormattedMessage id="security.notMe.done.sessions" values={{ count: result.sessions_ended }} />
            </li>
            {result.credentials.map((c) => (
              <li key={c.credential}>
                <FormattedMessage
                  id={CREDENTIAL_DONE_IDS[c.credential] ?? 'security.notMe.done.other'}
                  values={{ count: c.count, credential: c.credential }}
                />
              </li>
            ))}
            {result.locked && (
              <li>
                <FormattedMessage id="security.notMe.done.locked" />
              </li>
            )}
          </ul>
          {!result.locked && (
            <Typography.Paragraph style={{ marginBottom: 0 }}>
              <FormattedMessage
                id="security.notMe.done.next"
                values={{
                  link: (chunks) => (
                    <Link
                      key="link"
                      to={CHANGE_PASSWORD_PATH}
                      onClick={onClose}
                      style={{ textDecoration: 'underline' }}
                    >
                      {chunks}
                    </Link>
                  ),
                }}
              />
            </Typography.Paragraph>
          )}
        </div>
      ) : (
        <>
          {failure && <Alert type="error" showIcon title={failure} role="alert" style={{ marginBottom: 12 }} />}
          <Typography.Paragraph>
            <FormattedMessage id="security.notMe.intro" />
          </Typography.Paragraph>
          <ul style={{ paddingInlineStart: 20, margin: '0 0 12px' }}>
            <li>
              <FormattedMessage id="security.notMe.does.sessions" />
            </li>
            <li>
              <FormattedMessage id="security.notMe.does.tokens" />
            </li>
            <li>
              <FormattedMessage id="security.notMe.does.packagesPassword" />
            </li>
          </ul>
          <Checkbox checked={lock} onChange={(e) => setLock(e.target.checked)} data-testid="security-not-me-lock">
            <FormattedMessage id="security.notMe.lock" />
          </Checkbox>
          <Typography.Paragraph type="secondary" style={{ margin: '4px 0 0', paddingInlineStart: 24 }}>
            <FormattedMessage id={lock ? 'security.notMe.lockOnHint' : 'security.notMe.lockHint'} />
          </Typography.Paragraph>
        </>
      )}
    </Modal>
  );
});
