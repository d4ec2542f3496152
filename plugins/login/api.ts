import type { RequestClient } from '../../src/core/request';

/** What a successful sign-in answers. */
export interface LoginResult {
  user: { id: string; username: string; name: string };
  /** The account is flagged: the password must be changed before going on. */
  must_change_password: boolean;
  /** CSRF token of the session just created (the page has none before sign-in). */
  csrf_token: string;
}

/** Calls of the sign-in page. */
export function loginApi(client: RequestClient) {
  return {
    /** Account-and-password sign-in; failures answer 401 (incorrect) or 423 (locked) in the error shape. */
    login: (username: string, password: string) =>
      client.post<LoginResult>(
        '/users/ajax/login',
        { username, password },
        { handleUnauthorized: false, silent: false },
      ),
    /** The forced change after sign-in, with the device headers the suite sends. */
    changePassword: async (csrfToken: string, newPassword: string, oldPassword?: string) => {
      // The fingerprint code (crypto) loads only when a password is actually changed.
      const { getUmidToken } = await import(/* webpackChunkName: "core-captcha" */ '../../src/core/captcha');
      return client.put<{ success: boolean }>(
        '/users/ajax/v1/my/password',
        oldPassword ? { new_password: newPassword, old_password: oldPassword } : { new_password: newPassword },
        {
          handleUnauthorized: false,
          headers: { 'X-CSRF-Token': csrfToken, user_agent: navigator.userAgent, 'umid-token': getUmidToken() },
        },
      );
    },
  };
}
