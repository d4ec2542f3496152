import { Button, Result } from 'antd';
import type { ResultProps } from 'antd';

type ResultStatusType = NonNullable<ResultProps['status']>;
import { FormattedMessage, useIntl } from 'react-intl';
import { useSearchParams } from 'react-router-dom';
import { edition } from '../../../src/core/edition';
import { BrandCard } from '../../../src/core/ui/BrandCard';
import type { LoginErrorType } from '../contract';
import { isLoginErrorType, isOAuthProvider } from '../../../schemas/sign-in-paths';
import { PROVIDER_NAME_IDS } from '../components/sign-in-labels';

/** Each failure's look and texts (the texts take `provider` and `hasProvider`: 'true' when one is named). */
const PAGES: Readonly<Record<LoginErrorType, { status: ResultStatusType; title: string; description: string }>> = {
  notSupported: {
    status: 'warning',
    title: 'login.errors.notSupported.title',
    description: 'login.errors.notSupported.description',
  },
  notBound: {
    status: 'warning',
    title: 'login.errors.notBound.title',
    description: 'login.errors.notBound.description',
  },
  noAccountInfo: {
    status: 'warning',
    title: 'login.errors.noAccountInfo.title',
    description: 'login.errors.noAccountInfo.description',
  },
  loginFailed: {
    status: 'error',
    title: 'login.errors.loginFailed.title',
    description: 'login.errors.loginFailed.description',
  },
};

/** The failure of a `?type=` value; anything unknown or missing is a failed sign-in. */
function failureType(v: string | null): LoginErrorType {
  return isLoginErrorType(v) ? v : 'loginFailed';
}

/**
 * `/login/errors?type=…&provider=…`: where a third-party sign-in that did not work lands (not offered, account not
 * bound, no account id in the provider's answer, anything else), naming the provider; the way back is the sign-in
 * page, and for an unbound account the sign-in that binds it.
 */
export default function LoginErrorPage() {
  const [params] = useSearchParams();
  const intl = useIntl();
  const type = failureType(params.get('type'));
  const providerParam = params.get('provider');
  const provider = isOAuthProvider(providerParam) ? intl.formatMessage({ id: PROVIDER_NAME_IDS[providerParam] }) : '';
  const values = { provider, hasProvider: provider ? 'true' : 'false' };
  const page = PAGES[type];
  const relogin = edition.paths.relogin;
  return (
    <BrandCard maxWidth={480}>
      <Result
        status={page.status}
        title={<FormattedMessage id={page.title} values={values} />}
        subTitle={<FormattedMessage id={page.description} values={values} />}
        style={{ padding: '16px 0' }}
        extra={[
          type === 'notBound' && (
            <Button key="bind" type="primary" href={`${relogin}?bind=1`}>
              <FormattedMessage id="login.errors.signInAndBind" />
            </Button>
          ),
          <Button key="back" type={type === 'notBound' ? 'default' : 'primary'} href={relogin}>
            <FormattedMessage id="login.errors.back" />
          </Button>,
        ]}
      />
    </BrandCard>
  );
}
