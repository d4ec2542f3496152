import { Button, Result } from 'antd';
import { observer } from 'mobx-react-lite';
import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { Navigate, useLocation } from 'react-router-dom';
import { edition } from '../../../src/core/edition';
import { useStores } from '../../../src/core/stores/root';

/**
 * Renders its children once the session knows the user: nothing while it loads, the edition's sign-in page when
 * nobody is signed in, a retry when the user could not be read. A broken organisation does not stop the pages of
 * this plugin: they are the way out of it.
 */
export const SignedIn = observer(function SignedIn({ children }: { children: ReactNode }) {
  const { session } = useStores();
  const location = useLocation();
  if (session.signedOut) {
    const next = encodeURIComponent(location.pathname + location.search);
    return <Navigate to={`${edition.paths.relogin}?next=${next}`} replace />;
  }
  if (session.user) return <>{children}</>;
  if (session.loading || !session.failed) return null;
  return (
    <Result
      status="error"
      title={
        <h1 style={{ font: 'inherit', margin: 0 }}>
          <FormattedMessage id="switch-org.session.failed" />
        </h1>
      }
      extra={
        <Button type="primary" onClick={() => void session.load()}>
          <FormattedMessage id="switch-org.session.retry" />
        </Button>
      }
    />
  );
});
