import { Button, Form, Input } from 'antd';
import { observer } from 'mobx-react-lite';
import { FormattedMessage, useIntl } from 'react-intl';
import { SliderCaptcha } from '../../../src/core/captcha/SliderCaptcha';
import type { ResetPasswordStore } from '../store';

/** Step 1: the account name, then the slider solved for it; a solved slider checks the account and goes on. */
export const AccountStep = observer(function AccountStep({ store }: { store: ResetPasswordStore }) {
  const intl = useIntl();
  const [form] = Form.useForm<{ username: string }>();
  const typed = Form.useWatch('username', form) ?? store.username;
  // The slider belongs to the confirmed name: editing the name asks for "Next" again.
  const sliderShown = !!store.username && typed.trim() === store.username;
  return (
    <Form
      form={form}
      layout="vertical"
      requiredMark={false}
      initialValues={{ username: store.username }}
      onFinish={(v) => store.chooseAccount(v.username)}
    >
      <Form.Item
        name="username"
        label={<FormattedMessage id="reset-password.account.username" />}
        rules={[
          {
            required: true,
            whitespace: true,
            message: intl.formatMessage({ id: 'reset-password.account.required' }),
          },
        ]}
      >
        <Input
          autoComplete="username"
          autoFocus
          maxLength={256}
          placeholder={intl.formatMessage({ id: 'reset-password.account.placeholder' })}
        />
      </Form.Item>
      {sliderShown ? (
        <Form.Item>
          <SliderCaptcha
            username={store.username}
            scene="recovery"
            resetKey={store.captchaRound}
            onPass={(pass) => void store.confirmAccount(pass)}
          />
        </Form.Item>
      ) : (
        <Button type="primary" htmlType="submit" block>
          <FormattedMessage id="reset-password.common.next" />
        </Button>
      )}
    </Form>
  );
});
