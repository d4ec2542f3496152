import { Button, Result, Spin } from 'antd';
import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { failureText } from '../../../src/core/stores/failure';
import { useStore } from '../../../src/core/stores/root';

/** Seconds before the landing page returns to the settings on its own. */
export const RETURN_COUNTDOWN_SECONDS = 5;
const SETTINGS_PATH = '/users/settings/profile';

/** The activation link's landing page: spends the token, says how it went, counts down back to the settings. */
const EmailVerifyPage = observer(function EmailVerifyPage() {
  const profile = useStore('profile');
  const intl = useIntl();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [seconds, setSeconds] = useState(RETURN_COUNTDOWN_SECONDS);
  const v = profile.verification;
  const settled = !token || v.state === 'done' || v.state === 'failed';

  useEffect(() => {
    if (token) void profile.verifyEmail(token);
  }, [profile, token]);
  useEffect(() => {
    if (!settled) return;
    const id = window.setInterval(() => setSeconds((s) => Math.max(0, s - 1)), 1000);
    return () => window.clearInterval(id);
  }, [settled]);
  useEffect(() => {
    if (settled && seconds === 0) navigate(SETTINGS_PATH, { replace: true });
  }, [settled, seconds, navigate]);

  const back = (
    <Button onClick={() => navigate(SETTINGS_PATH, { replace: true })}>
      <FormattedMessage id="profile.emails.back" />
    </Button>
  );
  // antd's subtitle grey is below AA contrast; the countdown is the page's key information.
  const countdown = (
    <span style={{ color: 'var(--ant-color-text-secondary)' }}>
      <FormattedMessage id="profile.emails.countdown" values={{ seconds }} />
    </span>
  );
  let body;
  if (!token)
    body = (
      <Result
        status="warning"
        title={<FormattedMessage id="profile.emails.noToken" />}
        subTitle={countdown}
        extra={back}
      />
    );
  else if (v.state === 'done')
    body = (
      <Result
        status="success"
        title={<FormattedMessage id="profile.emails.success" />}
        subTitle={countdown}
        extra={back}
      />
    );
  else if (v.state === 'failed')
    body = (
      <Result
        status="error"
        title={
          // A response ≥ 500 has nothing to add to the central notice; the page still names the outcome.
          v.failure
            ? failureText(v.failure, (id) => intl.formatMessage({ id }))
            : intl.formatMessage({ id: 'profile.emails.failed' })
        }
        subTitle={countdown}
        extra={back}
      />
    );
  else
    body = (
      <div style={{ textAlign: 'center', padding: 48 }}>
        <Spin />
        <p style={{ marginTop: 16 }}>
          <FormattedMessage id="profile.emails.verifying" />
        </p>
      </div>
    );
  return (
    <main
      style={{
        minHeight: '100vh',
        display: 'grid',
        placeItems: 'center',
        padding: 16,
        background: 'var(--ant-color-bg-layout)',
      }}
    >
      <div
        style={{
          background: 'var(--ant-color-bg-container)',
          borderRadius: 8,
          padding: 24,
          width: '100%',
          maxWidth: 560,
        }}
        data-testid="email-verify"
      >
        <h1 style={{ fontSize: 20, margin: 0, textAlign: 'center' }}>
          <FormattedMessage id="profile.emails.title" />
        </h1>
        <div role="status">{body}</div>
      </div>
    </main>
  );
});

export default EmailVerifyPage;
