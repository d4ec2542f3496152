import { createContext, useContext } from 'react';
import { Navigate } from 'react-router-dom';

/**
 * Told of each redirect a render makes. The service's renderer of first screens (src/app/server.tsx) listens: a page
 * whose guard only redirects (nobody signed in, a section the user may not open) is not painted, the browser renders
 * it (a painted empty frame would show until the app moved on).
 */
export const RedirectListener = createContext<((to: string) => void) | null>(null);

/** Props of `Redirect`. */
export interface RedirectProps {
  /** Where to go, replacing the current entry of the history. */
  to: string;
}

/** A guard's redirect: `<Navigate replace>` in the browser; under a listener (the server), it is reported instead. */
export function Redirect({ to }: RedirectProps) {
  const listener = useContext(RedirectListener);
  if (listener) {
    listener(to);
    return null;
  }
  return <Navigate to={to} replace />;
}
