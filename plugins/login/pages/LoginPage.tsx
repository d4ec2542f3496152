import { Alert, Tabs, Typography } from 'antd';
import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useSearchParams } from 'react-router-dom';
import { edition } from '../../../src/core/edition';
import { usePageConfig } from '../../../src/core/page-config';
import { failureText } from '../../../src/core/stores/failure';
import { useStore, useStores } from '../../../src/core/stores/root';
import { BrandCard } from '../../../src/core/ui/BrandCard';
import { NewPasswordForm } from '../../../src/core/ui/NewPasswordForm';
import { safeRedirect } from '../../../src/core/url';
import { CredentialsForm } from '../components/CredentialsForm';
import { OtherMethods } from '../components/OtherMethods';
import { PasskeySignIn } from '../components/PasskeySignIn';
import { PendingBindBanner } from '../components/PendingBindBanner';
import { SecondFactorStep } from '../components/SecondFactorStep';
import { orgIdFrom } from '../../../schemas/sign-in-paths';
import { DIRECTORY_LABEL_IDS } from '../components/sign-in-labels';

/** Where to go after sign-in: a validated `next`, else the settings. */
function nextUrl(params: URLSearchParams): string {
  return safeRedirect(params.get('next'), { origin: window.location.origin, fallback: '/users/settings' });
}

/** The account-and-password sign-in: the waiting third-party account (if any) binds with it. */
function PasswordSignIn({ autoFocus }: { autoFocus?: boolean }) {
  return (
    <>
      <PendingBindBanner />
      <CredentialsForm autoFocus={autoFocus} />
    </>
  );
}

/**
 * Sign-in with the account's password, or a directory's (LDAP, Windows AD tabs, when the page config enables them),
 * with the slider once the service asks for it (after failed tries), the second step for an account with a second
 * factor, and the forced password change when the account is flagged; below, a passkey sign-in (where the browser
 * can), the third-party providers and the edition's cloud-provider sign-in. Reached with `?bind=1` (from the
 * not-bound page), it offers to bind the third-party account waiting in this browser.
 */
const LoginPage = observer(function LoginPage() {
  const { session } = useStores();
  const login = useStore('login');
  const intl = useIntl();
  const [params] = useSearchParams();
  // The service says per page which methods it offers; read once, it does not change while the page shows.
  const { signIn } = usePageConfig();
  const directories = signIn?.directories ?? [];
  const bindAsked = params.get('bind') === '1';
  // Once a tab was chosen, keyboard focus stays on the tab bar instead of jumping into the form.
  const [tabChosen, setTabChosen] = useState(false);
  // A session whose password must be changed first stays: its sign-in here leads to the change form.
  const leave =
    login.done || (!session.loading && !!session.user && !session.user.must_change_password && !login.pendingChange);

  useEffect(() => {
    if (leave) window.location.assign(nextUrl(params));
  }, [leave, params]);

  useEffect(() => {
    // Only when asked: the answer is HttpOnly-cookie state, and a 404 on every sign-in page would be noise.
    if (bindAsked) void login.loadPendingBind();
  }, [bindAsked, login]);

  const failure = login.failure && failureText(login.failure, (id) => intl.formatMessage({ id }));
  const titleId = login.pendingChange
    ? 'login.changePassword.title'
    : login.secondFactor
      ? 'login.secondFactor.title'
      : directories.length
        ? 'login.title.signIn'
        : 'login.title';
  const orgId = orgIdFrom(params.get('org'));
  return (
    <BrandCard>
      <Typography.Title level={2} style={{ fontSize: 16, marginTop: 0 }}>
        <FormattedMessage id={titleId} />
      </Typography.Title>
      {failure && <Alert type="error" showIcon title={failure} style={{ marginBottom: 16 }} role="alert" />}
      {login.pendingChange ? (
        <NewPasswordForm
          submitting={login.saving}
          onSubmit={(p) => void login.changePassword(p)}
          hint={<FormattedMessage id="login.changePassword.hint" />}
          submitLabel={<FormattedMessage id="login.changePassword.submit" />}
        />
      ) : login.secondFactor ? (
        <SecondFactorStep />
      ) : (
        <>
          {directories.length ? (
            // Zero width for sizing, full width for layout: the tab bar never widens the card (BrandCard's grid
            // sizes it by its content); on a phone the tabs fit, or the last ones fold into the tab bar's menu.
            <div style={{ width: 0, minWidth: '100%' }}>
              <Tabs
                destroyOnHidden
                tabBarGutter={16}
                onChange={() => {
                  setTabChosen(true);
                  login.clearFailure();
                }}
                items={[
                  {
                    key: 'password',
                    label: <FormattedMessage id="login.tab.password" />,
                    children: <PasswordSignIn autoFocus={!tabChosen} />,
                  },
                  ...directories.map((kind) => ({
                    key: kind,
                    label: <FormattedMessage id={DIRECTORY_LABEL_IDS[kind].tab} />,
                    children: <CredentialsForm directory={kind} orgId={orgId} autoFocus={false} />,
                  })),
                ]}
              />
            </div>
          ) : (
            <PasswordSignIn />
          )}
          <PasskeySignIn />
          <OtherMethods
            providers={signIn?.oauth ?? []}
            cloudProviderUrl={edition.signIn?.cloudProviderUrl}
            next={params.get('next')}
          />
        </>
      )}
    </BrandCard>
  );
});

export default LoginPage;
