import { Alert, Button, Result, Steps, Typography } from 'antd';
import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { edition } from '../../../src/core/edition';
import { failureText } from '../../../src/core/stores/failure';
import { useStore } from '../../../src/core/stores/root';
import { BrandCard } from '../../../src/core/ui/BrandCard';
import { NewPasswordForm } from '../../../src/core/ui/NewPasswordForm';
import { AccountStep } from '../components/AccountStep';
import { FactorStep } from '../components/FactorStep';
import { VerifyStep } from '../components/VerifyStep';
import type { RecoveryStep } from '../store';

// The second factor is part of the security verification.
const STEP_INDEX: Record<RecoveryStep, number> = { account: 0, verify: 1, factor: 1, reset: 2, done: 3 };

/**
 * The forgot-password wizard: confirm account (slider) → security verification (mailed code, then the second factor
 * for an account with one) → new password.
 */
const ResetPasswordPage = observer(function ResetPasswordPage() {
  const store = useStore('resetPassword');
  const intl = useIntl();
  // Nothing of a recovery outlives the page: leaving it forgets the name, flow and ticket.
  useEffect(() => () => store.leave(), [store]);

  const failure = store.failure && failureText(store.failure, (id) => intl.formatMessage({ id }));
  return (
    <BrandCard maxWidth={520}>
      <Typography.Title level={2} style={{ fontSize: 16, marginTop: 0 }}>
        <FormattedMessage id="reset-password.page.title" />
      </Typography.Title>
      <Steps
        size="small"
        titlePlacement="vertical"
        responsive={false}
        current={STEP_INDEX[store.step]}
        style={{ marginBottom: 24 }}
        items={[
          { title: <FormattedMessage id="reset-password.steps.account" /> },
          { title: <FormattedMessage id="reset-password.steps.verify" /> },
          { title: <FormattedMessage id="reset-password.steps.reset" /> },
        ]}
      />
      {failure && <Alert type="error" showIcon title={failure} style={{ marginBottom: 16 }} role="alert" />}
      {store.step === 'account' && <AccountStep store={store} />}
      {store.step === 'verify' && <VerifyStep store={store} />}
      {store.step === 'factor' && <FactorStep store={store} />}
      {store.step === 'reset' && (
        <NewPasswordForm
          autoFocus
          submitting={store.saving}
          onSubmit={(p) => void store.resetPassword(p)}
          hint={<FormattedMessage id="reset-password.reset.hint" values={{ username: store.username }} />}
          submitLabel={<FormattedMessage id="reset-password.reset.submit" />}
        />
      )}
      {store.step === 'done' ? (
        <Result
          status="success"
          title={<FormattedMessage id="reset-password.done.title" />}
          subTitle={<FormattedMessage id="reset-password.done.subtitle" />}
          extra={
            <Button type="primary" href={edition.paths.relogin} autoFocus>
              <FormattedMessage id="reset-password.done.signIn" />
            </Button>
          }
        />
      ) : (
        <div style={{ marginTop: 16, textAlign: 'center' }}>
          <a href={edition.paths.relogin}>
            <FormattedMessage id="reset-password.backToSignIn" />
          </a>
        </div>
      )}
    </BrandCard>
  );
});

export default ResetPasswordPage;
