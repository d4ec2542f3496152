import type { AppsSearchAnswer, Me } from '../../../schemas/session';
import type { RequestClient } from '../request';

/** Calls of the session: who is signed in, and which apps the organisation has. */
export function sessionApi(client: RequestClient) {
  return {
    /** The current user with e-mail info; 401 when nobody is signed in. */
    me: () => client.get<Me>('/individual/proxy/me', { with_email_info: true }, { handleUnauthorized: false }),
    /** Installed apps of the current organisation (sent as `x-tenant-id`). */
    installedApps: () => client.post<AppsSearchAnswer>('/uiless/api/apps:search', {}),
  };
}
