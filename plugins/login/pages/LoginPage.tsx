import { GlobalOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Dropdown, Form, Input, Typography } from 'antd';
import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useSearchParams } from 'react-router-dom';
import { edition, type Locale } from '../../../src/core/edition';
import { failureText } from '../../../src/core/stores/failure';
import { useStore, useStores } from '../../../src/core/stores/root';
import { safeRedirect } from '../../../src/core/url';
import { ChangePasswordForm } from '../components/ChangePasswordForm';

/** Where to go after sign-in: a validated `next`, else the settings. */
function nextUrl(params: URLSearchParams): string {
  return safeRedirect(params.get('next'), { currentHost: window.location.host, fallback: '/users/settings' });
}

/** Account-and-password sign-in, with the forced password change when the account is flagged. */
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
    <main style={{ minHeight: '100vh', display: 'grid', placeItems: 'center', padding: 16, background: '#f5f7fa' }}>
      <Card style={{ width: '100%', maxWidth: 400 }}>
        <div style={{ display: 'flex', alignItems: 'center', gap: 8, marginBottom: 16 }}>
          <img src={edition.brand.logo} alt="" width={32} height={32} />
          <Typography.Title level={1} style={{ margin: 0, fontSize: 20, flex: 1 }}>
            {edition.names.system[session.locale]}
          </Typography.Title>
          <Dropdown
            trigger={['click']}
            menu={{
              selectedKeys: [session.locale],
              items: [
                { key: 'zh_CN', label: <FormattedMessage id="login.language.zh_CN" /> },
                { key: 'en_US', label: <FormattedMessage id="login.language.en_US" /> },
              ],
              onClick: ({ key }) => session.setLocale(key as Locale),
            }}
          >
            <Button type="text" icon={<GlobalOutlined />} aria-label={intl.formatMessage({ id: 'login.language' })} />
          </Dropdown>
        </div>
        <Typography.Title level={2} style={{ fontSize: 16, marginTop: 0 }}>
          <FormattedMessage id={login.pendingChange ? 'login.changePassword.title' : 'login.title'} />
        </Typography.Title>
        {failure && <Alert type="error" showIcon message={failure} style={{ marginBottom: 16 }} role="alert" />}
        {login.pendingChange ? (
          <ChangePasswordForm submitting={login.saving} onSubmit={(p) => void login.changePassword(p)} />
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
      </Card>
    </main>
  );
});

export default LoginPage;
