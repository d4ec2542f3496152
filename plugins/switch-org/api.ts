import type { RequestClient } from '../../src/core/request';
import type {
  AppAccessAnswer,
  AppAdminsAnswer,
  AppInfo,
  LastWorkspaceAnswer,
  LastWorkspaceBody,
  OrganizationsListAnswer,
  OrganizationsListBody,
} from './contract';
import { ORG_PAGE_SIZE_DEFAULT } from './limits';

const org = (id: string) => `/uiless/api/organizations/${encodeURIComponent(id)}`;

/**
 * The organisation a call is made in, as `x-tenant-id`: the one the call is about, not the one the page was opened
 * in, so a switch away from a refused organisation (IP, licence) is judged by the target's policies only.
 */
const inOrganization = (id: string) => ({ headers: { 'x-tenant-id': id } });

/** Calls of the organisation chooser and the application entry guard; a response ≥ 500 shows the central notice. */
export function switchOrgApi(client: RequestClient) {
  return {
    /** One page of the caller's organisations by name; `nextToken` null for the first page. */
    organizations: (userId: string, nextToken: string | null) =>
      client.post<OrganizationsListAnswer>('/individual/proxy/my/organizations', {
        user_id: userId,
        pagination: { next_token: nextToken, page_size: ORG_PAGE_SIZE_DEFAULT },
      } satisfies OrganizationsListBody),
    /** Makes the organisation the user's current one (members only; refused when its policies refuse the caller). */
    lastWorkspace: (organizationId: string) =>
      client.put<LastWorkspaceAnswer>(
        '/uiless/api/sdk/users/lastWorkspace',
        { organization_id: organizationId } satisfies LastWorkspaceBody,
        inOrganization(organizationId),
      ),
    /** The guard's first call: may the caller enter the app in the organisation (`pass`, and why not)? */
    appAccess: (organizationId: string, appId: string) =>
      client.get<AppAccessAnswer>(
        `${org(organizationId)}/apps/${encodeURIComponent(appId)}`,
        undefined,
        inOrganization(organizationId),
      ),
    /** The guard's second call: the app as installed in the organisation, with the address to go to (`raw_url`). */
    appInfo: (organizationId: string, appId: string) =>
      client.get<AppInfo>(`/uiless/apps/${encodeURIComponent(appId)}`, undefined, inOrganization(organizationId)),
    /** The organisation's app administrators, whom a refused user can ask for access. */
    appAdmins: (organizationId: string) =>
      client.get<AppAdminsAnswer>(`${org(organizationId)}/appAdmins`, undefined, inOrganization(organizationId)),
  };
}

/** The calls above, as the stores hold them. */
export type SwitchOrgApi = ReturnType<typeof switchOrgApi>;
