import { Button, Form, Input, Space } from 'antd';
import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useSecondsUntil } from '../../../src/core/ui/useSecondsUntil';

/** Props of the mailed-code field: where the last code went, and how to send one. */
export interface MailedCodeFieldProps {
  /** The masked address the last code went to; undefined before one is sent (`hint` shows then). */
  sentTo?: string | null;
  /** What the field says before a code is sent. */
  hint: ReactNode;
  /** When the next code may be asked for (the button counts down to it). */
  availableAt: number | null;
  /** A send is under way (the button waits). */
  sending: boolean;
  onSend: () => void | Promise<void>;
  /** Test ids: `<testId>-code` on the input, `<testId>-send-code` on the button. */
  testId: string;
}

/**
 * The six-digit code mailed to the account's address (form field `code`) with its send button: the proof of an
 * e-mail change or a first password for an account without one.
 */
export function MailedCodeField({ sentTo, hint, availableAt, sending, onSend, testId }: MailedCodeFieldProps) {
  const intl = useIntl();
  const seconds = useSecondsUntil(availableAt);
  return (
    <Form.Item
      label={<FormattedMessage id="profile.email.code" />}
      extra={sentTo ? <FormattedMessage id="profile.email.codeSent" values={{ email: sentTo }} /> : hint}
    >
      <Space.Compact style={{ width: '100%' }}>
        <Form.Item
          name="code"
          noStyle
          rules={[
            { required: true, pattern: /^\d{6}$/, message: intl.formatMessage({ id: 'profile.email.codeRequired' }) },
          ]}
        >
          <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} data-testid={`${testId}-code`} />
        </Form.Item>
        <Button disabled={seconds > 0 || sending} onClick={() => void onSend()} data-testid={`${testId}-send-code`}>
          {seconds > 0 ? (
            <FormattedMessage id="profile.email.resendIn" values={{ seconds }} />
          ) : (
            <FormattedMessage id="profile.email.sendCode" />
          )}
        </Button>
      </Space.Compact>
    </Form.Item>
  );
}
