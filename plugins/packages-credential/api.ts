import type { RequestClient } from '../../src/core/request';
import type { PackagesPasswordReset, PackagesUserInfo } from './contract';

const BASE = '/uiless/proxy/package/api/external/users';

/** Calls of the artifact-repository credential section; a response ≥ 500 shows the central notice. */
export function packagesCredentialApi(client: RequestClient) {
  return {
    /** Username and whether a password is set. */
    userInfo: () => client.get<PackagesUserInfo>(`${BASE}/userInfo`),
    /** Sets a new random password; accepted 10 s later. */
    resetPassword: () => client.post<PackagesPasswordReset>(`${BASE}/user/password`, {}),
  };
}
