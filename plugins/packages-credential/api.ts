import type { RequestClient } from '../../src/core/request';

/** The artifact-repository account; the password is never part of it. */
export interface PackagesUserInfo {
  username: string;
  /** A password exists (it can be reset, not read). */
  has_password: boolean;
  /** When the latest password starts to work (ISO); null before the first reset. */
  effective_at: string | null;
}

/** Reset answer: the new password, shown once. */
export interface PackagesPasswordReset extends PackagesUserInfo {
  password: string;
}

const BASE = '/uiless/proxy/package/api/external/users';

/** Calls of the artifact-repository credential section (silent: the page shows its own failures). */
export function packagesCredentialApi(client: RequestClient) {
  return {
    /** Username and whether a password is set. */
    userInfo: () => client.get<PackagesUserInfo>(`${BASE}/userInfo`, undefined, { silent: true }),
    /** Sets a new random password; accepted 10 s later. */
    resetPassword: () => client.post<PackagesPasswordReset>(`${BASE}/user/password`, {}, { silent: true }),
  };
}
