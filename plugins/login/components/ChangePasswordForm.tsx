import { Button, Form, Input } from 'antd';
import { FormattedMessage, useIntl } from 'react-intl';
import { validatePassword, validatePasswordConfirmation } from '../../../src/core/validation';

/** Props of the forced change-password step. */
export interface ChangePasswordFormProps {
  submitting: boolean;
  onSubmit: (newPassword: string) => void;
}

/** New password twice, checked with the shared password rule before anything is sent. */
export function ChangePasswordForm({ submitting, onSubmit }: ChangePasswordFormProps) {
  const intl = useIntl();
  const [form] = Form.useForm<{ password: string; confirm: string }>();
  const rule = (check: (v: string) => string | undefined) => ({
    validator: (_: unknown, v: string) => {
      const id = check(v ?? '');
      return id ? Promise.reject(new Error(intl.formatMessage({ id }))) : Promise.resolve();
    },
  });
  return (
    <Form form={form} layout="vertical" requiredMark={false} onFinish={(v) => onSubmit(v.password)}>
      <p>
        <FormattedMessage id="login.changePassword.hint" />
      </p>
      <Form.Item
        name="password"
        label={<FormattedMessage id="login.changePassword.new" />}
        rules={[rule(validatePassword)]}
        extra={<FormattedMessage id="login.changePassword.rule" />}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="confirm"
        label={<FormattedMessage id="login.changePassword.confirm" />}
        dependencies={['password']}
        rules={[rule((v) => validatePasswordConfirmation(form.getFieldValue('password'), v))]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={submitting}>
        <FormattedMessage id="login.changePassword.submit" />
      </Button>
    </Form>
  );
}
