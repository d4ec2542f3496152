import { KeyOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { observer } from 'mobx-react-lite';
import { FormattedMessage } from 'react-intl';
import { useStore } from '../../../src/core/stores/root';
import { usePasskeySupport } from '../../../src/core/webauthn';

/**
 * "Sign in with a passkey": no name, no password; the browser offers this site's passkeys (discoverable credentials)
 * and the one chosen names the account. Only where the browser can use passkeys (never in the painted page: the
 * button arrives with the app, below the form, so nothing above it moves).
 */
export const PasskeySignIn = observer(function PasskeySignIn() {
  const login = useStore('login');
  if (!usePasskeySupport()) return null;
  return (
    <Button
      block
      icon={<KeyOutlined aria-hidden />}
      loading={login.passkeyPending}
      disabled={login.saving}
      onClick={() => void login.signInWithPasskey()}
      style={{ marginTop: 16 }}
      data-testid="passkey-sign-in"
    >
      <FormattedMessage id="login.passkey.signIn" />
    </Button>
  );
});
