import { Alert, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import {
  validateNewPasswordDiffers,
  validatePassword,
  validatePasswordConfirmation,
} from '../../../src/core/validation';
import { failureText, type ActionResult, type Failure } from '../../../src/core/stores/failure';

/** Props of the change-password dialog. */
export interface PasswordModalProps {
  open: boolean;
  /** Ask for the current password (the account has one). */
  needsOld: boolean;
  saving: boolean;
  onSubmit: (newPassword: string, oldPassword?: string) => Promise<ActionResult>;
  onClose: (changed: boolean) => void;
}

interface Values {
  old?: string;
  password: string;
  confirm: string;
}

/** Current, new and repeated password, checked with the shared rule before anything is sent. */
export function PasswordModal({ open, needsOld, saving, onSubmit, onClose }: PasswordModalProps) {
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
    const r = await onSubmit(v.password, v.old);
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
        {needsOld && (
          <Form.Item
            name="old"
            label={<FormattedMessage id="profile.password.old" />}
            rules={[{ required: true, message: intl.formatMessage({ id: 'profile.password.oldRequired' }) }]}
          >
            <Input.Password autoComplete="current-password" />
          </Form.Item>
        )}
        <Form.Item
          name="password"
          label={<FormattedMessage id="profile.password.new" />}
          dependencies={['old']}
          rules={[rule(validatePassword), rule((v) => validateNewPasswordDiffers(form.getFieldValue('old'), v))]}
          extra={
            // antd's hint grey is below AA contrast; the rule is what the user needs to read.
            <span style={{ color: 'rgba(0, 0, 0, 0.65)' }}>
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
