import type { ReactNode } from 'react';
import { SignedIn as CoreSignedIn } from '../../../src/core/ui/SignedIn';

/**
 * The core's signed-in gate with this plugin's texts. A broken organisation does not stop the pages of this plugin:
 * they are the way out of it.
 */
export function SignedIn({ children }: { children: ReactNode }) {
  return (
    <CoreSignedIn failedId="switch-org.session.failed" retryId="switch-org.session.retry">
      {children}
    </CoreSignedIn>
  );
}
