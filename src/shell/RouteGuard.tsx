import { observer } from 'mobx-react-lite';
import type { ReactNode } from 'react';
import { Authorized } from '../core/access';
import { useStores } from '../core/stores/root';

/** Props of the guard of a plugin route. */
export interface RouteGuardProps {
  /** The route's `auth`: flags of which one must be granted; absent or empty means open. */
  auth?: readonly string[];
  /** The page. */
  children: ReactNode;
}

/**
 * A plugin route's `auth` check against the session's flags: open routes render at once; guarded ones wait
 * for the session (its flags are all false until then) and show 'No Auth' when no listed flag is granted.
 */
export const RouteGuard = observer(function RouteGuard({ auth, children }: RouteGuardProps) {
  const { session } = useStores();
  if (!auth?.length) return <>{children}</>;
  if (session.loading) return null;
  return (
    <Authorized auth={auth} flags={session.access}>
      {children}
    </Authorized>
  );
});
