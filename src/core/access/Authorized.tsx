import { createContext, useContext, type ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { checkAuth, type AccessFlags } from './access';

/** The current user's flags, provided once by the app shell. */
export const AccessContext = createContext<AccessFlags>({});

/** Reads the current permission flags. */
export function useAccess(): AccessFlags {
  return useContext(AccessContext);
}

/** Props of `<Authorized>`. */
export interface AuthorizedProps {
  /** Permission names of which one must be granted; absent or empty means open; must be an array. */
  auth?: readonly string[];
  /** Shown instead of the children when access is denied; defaults to the 'No Auth' text. */
  fallback?: ReactNode;
  /** Flags to check against; defaults to the AccessContext. */
  flags?: AccessFlags;
  /** The guarded content. */
  children?: ReactNode;
}

/** Renders children only when the auth list passes, else the fallback or 'No Auth'. */
export function Authorized({ auth, fallback, flags, children }: AuthorizedProps) {
  const contextFlags = useAccess();
  if (checkAuth(auth, flags ?? contextFlags)) return <>{children}</>;
  return <>{fallback !== undefined ? fallback : <FormattedMessage id="core.access.noAuth" />}</>;
}
