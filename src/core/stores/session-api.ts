import type { RequestClient } from '../request';

/** The signed-in user as `GET /individual/proxy/me?with_email_info=true` returns it. */
export interface CurrentUser {
  id: string;
  username: string;
  name: string;
  email: string | null;
  email_verified: boolean;
  avatar: string | null;
  language: string | null;
  must_change_password: boolean;
  organization_id: string | null;
}

/** One installed application of the current organisation. */
export interface InstalledAppRow {
  identity: string;
  id?: string;
  name?: string;
}

/** Calls of the session: who is signed in, and which apps the organisation has. */
export function sessionApi(client: RequestClient) {
  return {
    /** The current user with e-mail info; 401 when nobody is signed in. */
    me: () => client.get<CurrentUser>('/individual/proxy/me', { with_email_info: true }, { handleUnauthorized: false }),
    /** Installed apps of the current organisation (sent as `x-tenant-id`). */
    installedApps: () => client.post<{ results: InstalledAppRow[] }>('/uiless/api/apps:search', {}),
  };
}
