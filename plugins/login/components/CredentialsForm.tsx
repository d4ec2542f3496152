import { Button, Form, Input, Typography, type InputRef } from 'antd';
import { observer } from 'mobx-react-lite';
import { useEffect, useRef } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { SliderCaptcha } from '../../../src/core/captcha/SliderCaptcha';
import { useStore } from '../../../src/core/stores/root';
import type { DirectoryKind } from '../contract';
import { DIRECTORY_LABEL_IDS } from './sign-in-labels';

/** Props of the credentials form. */
export interface CredentialsFormProps {
  /** Whose password: a directory's (LDAP, Windows AD), else the account's own. */
  directory?: DirectoryKind;
  /** With a directory: the organisation in the page's `?org=`. */
  orgId?: string;
  /** Focus the account field when shown (the page's first form; not after a tab switch, where focus stays on the tab). */
  autoFocus?: boolean;
}

/**
 * Account, password, the slider once the service asks for it, and the submit button; the same form for the
 * account's own password and a directory's. A directory form names its fields `ldap_username` and so on, so two
 * forms never share an id.
 */
export const CredentialsForm = observer(function CredentialsForm({
  directory,
  orgId,
  autoFocus = true,
}: CredentialsFormProps) {
  const login = useStore('login');
  const intl = useIntl();
  const account = useRef<InputRef>(null);
  const password = useRef<InputRef>(null);
  const [form] = Form.useForm<{ username: string; password: string }>();
  useEffect(() => {
    // The page may come painted by the service: what the visitor typed (or the browser filled in) before the app was
    // there is in the fields themselves, not in the form's values. Read once, as the app takes the form over.
    const typed = { username: account.current?.input?.value, password: password.current?.input?.value };
    form.setFieldsValue(Object.fromEntries(Object.entries(typed).filter(([, v]) => v)));
  }, [form]);
  useEffect(() => {
    // After the first paint, not inside it (a focus makes the browser lay the page out there and then), and only
    // when the visitor has not put the focus anywhere yet.
    const active = document.activeElement;
    if (autoFocus && (!active || active === document.body)) account.current?.focus();
  }, [autoFocus]);
  return (
    <Form
      form={form}
      name={directory}
      layout="vertical"
      requiredMark={false}
      // "Back" from the second step: the name stays.
      initialValues={login.lastUsername ? { username: login.lastUsername } : undefined}
      onFinish={(v: { username: string; password: string }) =>
        void login.signIn(v.username, v.password, directory ? { directory, orgId } : {})
      }
    >
      <Form.Item
        name="username"
        label={<FormattedMessage id={directory ? DIRECTORY_LABEL_IDS[directory].account : 'login.username'} />}
        rules={[{ required: true, whitespace: true, message: intl.formatMessage({ id: 'login.username.required' }) }]}
      >
        {/* The server-rendered page carries `autofocus`, so the browser focuses the field before the app is there. */}
        <Input
          ref={account}
          autoComplete="username"
          autoFocus={autoFocus && typeof window === 'undefined'}
          maxLength={256}
        />
      </Form.Item>
      <Form.Item
        name="password"
        label={<FormattedMessage id="login.password" />}
        rules={[{ required: true, message: intl.formatMessage({ id: 'login.password.required' }) }]}
      >
        <Input.Password ref={password} autoComplete="current-password" maxLength={1024} />
      </Form.Item>
      {login.captchaFor && (
        <Form.Item>
          <SliderCaptcha
            username={login.captchaFor}
            scene="login"
            resetKey={login.captchaRound}
            onPass={(pass) => login.setCaptchaPass(pass)}
          />
        </Form.Item>
      )}
      <Button type="primary" htmlType="submit" block loading={login.saving}>
        <FormattedMessage id="login.submit" />
      </Button>
      <div style={{ marginTop: 12, textAlign: 'right' }}>
        {directory ? (
          // The directory owns these passwords: the product cannot reset them.
          <Typography.Text type="secondary">
            <FormattedMessage id="login.forgotPassword.directory" />
          </Typography.Text>
        ) : (
          <a href="/users/resetpassword">
            <FormattedMessage id="login.forgotPassword" />
          </a>
        )}
      </div>
    </Form>
  );
});
