import { Alert, Button, Input, Modal, Typography, type InputRef } from 'antd';
import { observer } from 'mobx-react-lite';
import { useEffect, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { failureText } from '../../../src/core/stores/failure';
import { FACTOR_NAME_MAX } from '../../../schemas/second-factor-limits';
import type { Passkey } from '../contract';
import type { TwoFactorStore } from '../store';
import type { Toast } from './words';

/** Props of the passkey's name dialog. Mount with a new `key` per opening, so it starts afresh. */
export interface PasskeyNameDialogProps {
  open: boolean;
  /** The passkey to rename; null to add a new one. */
  passkey: Passkey | null;
  store: TwoFactorStore;
  /** The page's toasts. */
  toast: Toast;
  onClose(): void;
  /** After it has closed (the page puts the keyboard back where it belongs). */
  afterClose?: () => void;
}

/**
 * A passkey's name: asked before adding one (then the browser's own prompt takes over: fingerprint, face, screen lock
 * or a security key), or to rename one. A refused or cancelled prompt is said here, and the name stays for another try.
 */
export const PasskeyNameDialog = observer(function PasskeyNameDialog({
  open,
  passkey,
  store,
  toast,
  onClose,
  afterClose,
}: PasskeyNameDialogProps) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const [name, setName] = useState(passkey?.name ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const field = useRef<InputRef>(null);
  const adding = passkey === null;
  const busy = adding ? store.adding : store.editing === passkey.id;

  // After the dialog's own focus handling (it focuses its container when it opens).
  useEffect(() => {
    if (!open) return;
    const timer = setTimeout(() => field.current?.focus({ cursor: 'all' }), 50);
    return () => clearTimeout(timer);
  }, [open]);

  const submit = async () => {
    if (busy) return;
    const trimmed = name.trim();
    if (!trimmed) {
      setProblem(t('security.twoFactor.passkeys.nameRequired'));
      field.current?.focus();
      return;
    }
    setProblem(null);
    setFailure(null);
    const r = adding ? await store.addPasskey(trimmed) : await store.renamePasskey(passkey.id, trimmed);
    if (r.ok) {
      void toast.success(
        t(adding ? 'security.twoFactor.passkeys.addedToast' : 'security.twoFactor.passkeys.renamed', {
          name: trimmed,
        }),
      );
      onClose();
    } else if (r.failure) setFailure(failureText(r.failure, t));
  };

  return (
    <Modal
      open={open}
      title={
        <FormattedMessage
          id={adding ? 'security.twoFactor.passkeys.addTitle' : 'security.twoFactor.passkeys.renameTitle'}
        />
      }
      onCancel={onClose}
      afterClose={afterClose}
      mask={{ closable: !busy }}
      width={480}
      data-testid="security-passkey-dialog"
      footer={[
        <Button key="cancel" onClick={onClose}>
          <FormattedMessage id="security.cancel" />
        </Button>,
        <Button
          key="ok"
          type="primary"
          loading={busy}
          onClick={() => void submit()}
          data-testid="security-passkey-dialog-ok"
        >
          <FormattedMessage id={adding ? 'security.twoFactor.passkeys.continue' : 'security.twoFactor.save'} />
        </Button>,
      ]}
    >
      {failure && (
        <Alert
          type="error"
          showIcon
          role="alert"
          title={failure}
          style={{ marginBottom: 12 }}
          data-testid="security-passkey-failure"
        />
      )}
      {adding && (
        <Typography.Paragraph type="secondary">
          <FormattedMessage id="security.twoFactor.passkeys.addHint" />
        </Typography.Paragraph>
      )}
      {/* Enter in the field goes on; antd's Form stays out of the page's shared scripts (one field here). */}
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <label htmlFor="security-passkey-name" style={{ display: 'block', marginBottom: 8 }}>
          <FormattedMessage id="security.twoFactor.passkeys.name" />
        </label>
        <Input
          id="security-passkey-name"
          ref={field}
          value={name}
          onChange={(e) => setName(e.target.value)}
          maxLength={FACTOR_NAME_MAX}
          showCount
          autoComplete="off"
          placeholder={t('security.twoFactor.passkeys.namePlaceholder')}
          status={problem ? 'error' : undefined}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? 'security-passkey-problem' : adding ? 'security-passkey-hint' : undefined}
          data-testid="security-passkey-name-input"
        />
        {problem ? (
          <Typography.Paragraph type="danger" id="security-passkey-problem" role="alert" style={{ margin: '4px 0 0' }}>
            {problem}
          </Typography.Paragraph>
        ) : (
          adding && (
            <Typography.Paragraph type="secondary" id="security-passkey-hint" style={{ margin: '4px 0 0' }}>
              <FormattedMessage id="security.twoFactor.passkeys.nameHint" />
            </Typography.Paragraph>
          )
        )}
      </form>
    </Modal>
  );
});
