import { Alert, Button } from 'antd';
import { observer } from 'mobx-react-lite';
import { FormattedMessage, useIntl } from 'react-intl';
import { useStore } from '../../../src/core/stores/root';
import { PROVIDER_NAME_IDS } from './sign-in-labels';

/** 'Sign in to bind your DingTalk account Ann', with a way out; nothing when no third-party account waits. */
export const PendingBindBanner = observer(function PendingBindBanner() {
  const login = useStore('login');
  const intl = useIntl();
  const bind = login.pendingBind;
  if (!bind) return null;
  const provider = intl.formatMessage({ id: PROVIDER_NAME_IDS[bind.provider] });
  return (
    <Alert
      type="info"
      showIcon
      data-testid="pending-bind"
      style={{ marginBottom: 16 }}
      title={
        bind.name ? (
          <FormattedMessage id="login.bind.banner" values={{ provider, name: bind.name }} />
        ) : (
          <FormattedMessage id="login.bind.bannerNoName" values={{ provider }} />
        )
      }
      action={
        <Button type="link" size="small" disabled={login.saving} onClick={() => void login.cancelPendingBind()}>
          <FormattedMessage id="login.bind.cancel" />
        </Button>
      }
    />
  );
});
