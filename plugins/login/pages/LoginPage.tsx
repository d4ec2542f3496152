import { Alert, Button, Form, Input, Typography } from 'antd';
import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useSearchParams } from 'react-router-dom';
import { SliderCaptcha } from '../../../src/core/captcha/SliderCaptcha';
import { failureText } from '../../../src/core/stores/failure';
import { useStore, useStores } from '../../../src/core/stores/root';
import { BrandCard } from '../../../src/core/ui/BrandCard';
import { NewPasswordForm } from '../../../src/core/ui/NewPasswordForm';
import { safeRedirect } from '../../../src/core/url';

/** Where to go after sign-in: a validated `next`, else the settings. */
function nextUrl(params: URLSearchParams): string {
  return safeRedirect(params.get('next'), { origin: window.location.origin, fallback: '/users/settings' });
}

/**
 * Account-and-password sign-in, with the slider once the service asks for it (after failed tries) and the forced
 * password change when the account is flagged.
 */
const LoginPage = observer(function LoginPage() {
  const { session } = useStores();
  const login = useStore('login');
  const intl = useIntl();
  const [params] = useSearchParams();
  const leave = login.done || (!session.loading && !!session.user && !login.pendingChange);

  useEffect(() => {
    if (leave) window.location.assign(nextUrl(params));
  }, [leave, params]);

  const failure = login.failure && failureText(login.failure, (id) => intl.formatMessage({ id }));
  return (
    <BrandCard>
      <Typography.Title level={2} style={{ fontSize: 16, marginTop: 0 }}>
        <FormattedMessage id={login.pendingChange ? 'login.changePassword.title' : 'login.title'} />
      </Typography.Title>
      {failure && <Alert type="error" showIcon title={failure} style={{ marginBottom: 16 }} role="alert" />}
      {login.pendingChange ? (
        <NewPasswordForm
          submitting={login.saving}
          onSubmit={(p) => void login.changePassword(p)}
          hint={<FormattedMessage id="login.changePassword.hint" />}
          submitLabel={<FormattedMessage id="login.changePassword.submit" />}
        />
      ) : (
        <Form
          layout="vertical"
          requiredMark={false}
          onFinish={(v: { username: string; password: string }) => void login.signIn(v.username, v.password)}
        >
          <Form.Item
            name="username"
            label={<FormattedMessage id="login.username" />}
            rules={[
              { required: true, whitespace: true, message: intl.formatMessage({ id: 'login.username.required' }) },
            ]}
          >
            <Input autoComplete="username" autoFocus maxLength={256} />
          </Form.Item>
          <Form.Item
            name="password"
            label={<FormattedMessage id="login.password" />}
            rules={[{ required: true, message: intl.formatMessage({ id: 'login.password.required' }) }]}
          >
            <Input.Password autoComplete="current-password" maxLength={1024} />
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
            <a href="/users/resetpassword">
              <FormattedMessage id="login.forgotPassword" />
            </a>
          </div>
        </Form>
      )}
    </BrandCard>
  );
});

export default LoginPage;
