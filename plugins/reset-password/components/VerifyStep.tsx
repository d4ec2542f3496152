import { Button, Form, Input, Space } from 'antd';
import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useSecondsUntil } from '../../../src/core/ui/useSecondsUntil';
import { validateVerificationCode } from '../../../src/core/validation';
import { RECOVERY_CODE_LENGTH } from '../limits';
import type { ResetPasswordStore } from '../store';

const CODE_ID = 'reset-password-code';

/** Keeps only digits, at most the code's length (typed or pasted). */
const digitsOnly = (v: unknown) =>
  String(v ?? '')
    .replace(/\D/g, '')
    .slice(0, RECOVERY_CODE_LENGTH);

/** Step 2: where the code goes, the send button with its resend countdown, and the 6-digit code. */
export const VerifyStep = observer(function VerifyStep({ store }: { store: ResetPasswordStore }) {
  const intl = useIntl();
  const [form] = Form.useForm<{ code: string }>();
  const seconds = useSecondsUntil(store.resendAvailableAt, store.clock);
  const { codeRound } = store;

  useEffect(() => {
    if (codeRound) form.resetFields();
  }, [codeRound, form]);

  return (
    <Form form={form} layout="vertical" requiredMark={false} onFinish={(v) => void store.verifyCode(v.code)}>
      <p>
        <FormattedMessage
          id="reset-password.verify.sendTo"
          values={{
            email: (
              <strong key="email" data-testid="reset-password-email">
                {store.email}
              </strong>
            ),
          }}
        />
      </p>
      <Form.Item
        label={<FormattedMessage id="reset-password.verify.code" />}
        htmlFor={CODE_ID}
        extra={store.codeSent ? <FormattedMessage id="reset-password.verify.sent" /> : undefined}
      >
        <Space.Compact style={{ width: '100%' }}>
          <Form.Item
            name="code"
            noStyle
            normalize={digitsOnly}
            rules={[
              {
                validator: (_: unknown, v: string) => {
                  const id = validateVerificationCode(v);
                  return id ? Promise.reject(new Error(intl.formatMessage({ id }))) : Promise.resolve();
                },
              },
            ]}
          >
            <Input
              id={CODE_ID}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={RECOVERY_CODE_LENGTH}
              placeholder={intl.formatMessage({ id: 'reset-password.verify.codePlaceholder' })}
            />
          </Form.Item>
          <Button
            autoFocus
            onClick={() => void store.sendCode()}
            loading={store.sending}
            disabled={seconds > 0}
            data-testid="reset-password-send"
          >
            {seconds > 0 ? (
              <FormattedMessage id="reset-password.verify.resendIn" values={{ seconds }} />
            ) : (
              <FormattedMessage id={store.codeSent ? 'reset-password.verify.resend' : 'reset-password.verify.send'} />
            )}
          </Button>
        </Space.Compact>
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={store.saving} disabled={!store.codeSent}>
        <FormattedMessage id="reset-password.common.next" />
      </Button>
    </Form>
  );
});
