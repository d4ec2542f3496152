import { Alert, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { MailedCodeField } from './MailedCodeField';
import type { PasswordProofKind } from '../store';
import {
  validateNewPasswordDiffers,
  validatePassword,
  validatePasswordConfirmation,
} from '../../../src/core/validation';
import { failureText, type ActionResult, type Failure } from '../../../src/core/stores/failure';

/** The code a first password is proven with: where it went, when another may go, and how to send one. */
export interface PasswordCode {
  sentTo: string | null;
  availableAt: number | null;
  sending: boolean;
  onSend: () => Promise<ActionResult>;
}

/** Props of the change-password dialog. */
export interface PasswordModalProps {
  open: boolean;
  /**
   * What proves the account: the current password; for a first password its directory's password or the code
   * mailed to its current address; nothing (null) for an account with neither.
   */
  proof: PasswordProofKind;
  /** The directory's display name (proof 'directory'). */
  directory: string | null;
  /** The mailed code (proof 'code'). */
  code: PasswordCode;
  saving: boolean;
  onSubmit: (newPassword: string, given: { old?: string; code?: string }) => Promise<ActionResult>;
  onClose: (changed: boolean) => void;
}

interface Values {
  old?: string;
  code?: string;
  password: string;
  confirm: string;
}

/**
 * The account's proof (current password, or for a first password the directory's or a mailed code), new and repeated
 * password, checked with the shared rule before anything is sent.
 */
export function PasswordModal({ open, proof, directory, code, saving, onSubmit, onClose }: PasswordModalProps) {
  const intl = useIntl();
  const [form] = Form.useForm<Values>();
  const [failure, setFailure] = useState<Failure | null>(null);
  const rule = (check: (v: string) => string | undefined) => ({
    validator: (_: unknown, v: string) => {
      const id = check(v ?? '');
      return id ? Promise.reject(new Error(intl.formatMessage({ id }))) : Promise.resolve();
    },
  });
  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    setFailure(null);
    const r = await onSubmit(v.password, { old: v.old, code: v.code?.trim() || undefined });
    if (r.ok) {
      form.resetFields();
      onClose(true);
    } else setFailure(r.failure ?? null);
  };
  return (
    <Modal
      open={open}
      title={<FormattedMessage id="profile.password.modalTitle" />}
      okText={<FormattedMessage id="profile.common.confirm" />}
      cancelText={<FormattedMessage id="profile.common.cancel" />}
      confirmLoading={saving}
      onOk={() => void submit()}
      onCancel={() => {
        form.resetFields();
        setFailure(null);
        onClose(false);
      }}
      destroyOnHidden
    >
      {failure && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          title={failureText(failure, (id) => intl.formatMessage({ id }))}
        />
      )}
      <Form form={form} layout="vertical" requiredMark={false} onFinish={() => void submit()}>
        {proof === 'password' && (
          <Form.Item
            name="old"
            label={<FormattedMessage id="profile.password.old" />}
            rules={[{ required: true, message: intl.formatMessage({ id: 'profile.password.oldRequired' }) }]}
          >
            <Input.Password autoComplete="current-password" />
          </Form.Item>
        )}
        {proof === 'directory' && (
          <Form.Item
            name="old"
            label={<FormattedMessage id="profile.email.directoryPassword" values={{ directory }} />}
            extra={<FormattedMessage id="profile.password.directoryHint" values={{ directory }} />}
            rules={[
              {
                required: true,
                message: intl.formatMessage({ id: 'profile.email.directoryPasswordRequired' }, { directory }),
              },
            ]}
          >
            <Input.Password autoComplete="current-password" data-testid="profile-password-directory" />
          </Form.Item>
        )}
        {proof === 'code' && (
          <MailedCodeField
            sentTo={code.sentTo}
            hint={<FormattedMessage id="profile.password.codeHint" />}
            availableAt={code.availableAt}
            sending={code.sending}
            onSend={async () => {
              const r = await code.onSend();
              setFailure(r.ok ? null : (r.failure ?? null));
            }}
            testId="profile-password"
          />
        )}
        <Form.Item
          name="password"
          label={<FormattedMessage id="profile.password.new" />}
          dependencies={['old']}
          rules={[rule(validatePassword), rule((v) => validateNewPasswordDiffers(form.getFieldValue('old'), v))]}
          extra={
            // antd's hint grey is below AA contrast; the rule is what the user needs to read.
            <span style={{ color: 'var(--ant-color-text-secondary)' }}>
              <FormattedMessage id="profile.password.rule" />
            </span>
          }
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={<FormattedMessage id="profile.password.confirm" />}
          dependencies={['password']}
          rules={[rule((v) => validatePasswordConfirmation(form.getFieldValue('password'), v))]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <button type="submit" hidden />
      </Form>
    </Modal>
  );
}
