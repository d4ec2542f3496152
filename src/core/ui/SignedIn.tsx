import { Button, Result } from 'antd';
import { observer } from 'mobx-react-lite';
import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { useLocation } from 'react-router-dom';
import { edition } from '../edition';
import { useStores } from '../stores/root';
import { Redirect } from './Redirect';

/** Props of `SignedIn`: the page, and the slice's message ids for a user that could not be read. */
export interface SignedInProps {
  children: ReactNode;
  /** Title shown when the user could not be read (a server or network failure). */
  failedId: string;
  /** Label of the retry button under it. */
  retryId: string;
}

/**
 * Renders its children once the session knows the user: nothing while it loads, the edition's sign-in page when
 * nobody is signed in, a retry when the user could not be read. For top-level pages outside the settings shell,
 * which do their own session check (a broken organisation does not stop them).
 */
export const SignedIn = observer(function SignedIn({ children, failedId, retryId }: SignedInProps) {
  const { session } = useStores();
  const location = useLocation();
  // A user who must change the password first goes to the sign-in page, whose sign-in leads to the change.
  if (session.signedOut || session.user?.must_change_password) {
    const next = encodeURIComponent(location.pathname + location.search);
    return <Redirect to={`${edition.paths.relogin}?next=${next}`} />;
  }
  if (session.user) return <>{children}</>;
  if (session.loading || !session.failed) return null;
  return (
    <Result
      status="error"
      title={
        <h1 style={{ font: 'inherit', margin: 0 }}>
          <FormattedMessage id={failedId} />
        </h1>
      }
      extra={
        <Button type="primary" onClick={() => void session.load()}>
          <FormattedMessage id={retryId} />
        </Button>
      }
    />
  );
});
