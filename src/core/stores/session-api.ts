import type { AppsSearchAnswer, Me, Organization } from '../../../schemas/session';
import type { RequestClient } from '../request';

/** Calls of the session: who is signed in, which organisation they work in, and which apps it has. */
export function sessionApi(client: RequestClient) {
  return {
    /** The current user with e-mail info; 401 when nobody is signed in. */
    me: () => client.get<Me>('/individual/proxy/me', { with_email_info: true }, { handleUnauthorized: false }),
    /** Installed apps of the current organisation (sent as `x-tenant-id`). */
    installedApps: () => client.post<AppsSearchAnswer>('/uiless/api/apps:search', {}),
    /** The current organisation's name and logo, for the header. */
    organization: (id: string) => client.get<Organization>(`/uiless/api/organizations/${encodeURIComponent(id)}`),
    /** Makes later `/uiless/` calls carry this organisation ('' for none) as `x-tenant-id`. */
    setTenant: (id: string) => client.setTenantId(id),
  };
}
