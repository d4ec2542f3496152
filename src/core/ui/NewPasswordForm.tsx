import { Button, Form, Input } from 'antd';
import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { validatePassword, validatePasswordConfirmation } from '../validation';

/** Props of the new-password form. */
export interface NewPasswordFormProps {
  /** A call is in flight: the button spins and cannot be pressed twice. */
  submitting: boolean;
  /** Receives the new password once both fields pass the product rule. */
  onSubmit: (newPassword: string) => void;
  /** The button's text, which names what happens next (e.g. "Change and continue", "Reset password"). */
  submitLabel: ReactNode;
  /** Shown above the fields, e.g. why the change is asked for. */
  hint?: ReactNode;
  /** Focus the first field on mount, for a step that just replaced the previous one. */
  autoFocus?: boolean;
}

/** New password twice, checked with the shared password rule before anything is sent (forced change, recovery). */
export function NewPasswordForm({ submitting, onSubmit, submitLabel, hint, autoFocus }: NewPasswordFormProps) {
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
      {hint && <p>{hint}</p>}
      <Form.Item
        name="password"
        label={<FormattedMessage id="core.newPassword.new" />}
        rules={[rule(validatePassword)]}
        extra={<FormattedMessage id="core.newPassword.rule" />}
      >
        <Input.Password autoComplete="new-password" autoFocus={autoFocus} />
      </Form.Item>
      <Form.Item
        name="confirm"
        label={<FormattedMessage id="core.newPassword.confirm" />}
        dependencies={['password']}
        rules={[rule((v) => validatePasswordConfirmation(form.getFieldValue('password'), v))]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={submitting}>
        {submitLabel}
      </Button>
    </Form>
  );
}
