import { Alert, Button } from 'antd';
import { observer } from 'mobx-react-lite';
import { FormattedMessage, useIntl } from 'react-intl';
import { useSearchParams } from 'react-router-dom';
import { useStore } from '../../../src/core/stores/root';
import { PROVIDER_NAME_IDS } from './sign-in-labels';

/** 'Sign in to bind your DingTalk account Ann', with a way out; nothing when no third-party account waits. */
export const PendingBindBanner = observer(function PendingBindBanner() {
  const login = useStore('login');
  const intl = useIntl();
  // Asked for (`?bind=1`, from the "not bound" page): until the page's effect takes what the page brought (LoginPage),
  // the first render shows it from there, so the banner is in the painted page instead of arriving later.
  const [params] = useSearchParams();
  const bind = login.pendingBind ?? (params.get('bind') === '1' ? login.broughtPendingBind : null);
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
