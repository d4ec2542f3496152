import type { RequestClient } from '../../src/core/request';
import type { Success } from '../../schemas/common';
import type { LoginResult } from './contract';

/** Calls of the sign-in page. */
export function loginApi(client: RequestClient) {
  return {
    /** Account-and-password sign-in; failures answer 401 (incorrect) or 423 (locked) in the error shape. */
    login: (username: string, password: string) =>
      client.post<LoginResult>('/users/ajax/login', { username, password }, { handleUnauthorized: false }),
    /** The forced change after sign-in, with the device headers the suite sends. */
    changePassword: async (csrfToken: string, newPassword: string, oldPassword?: string) => {
      // The fingerprint code (crypto) loads only when a password is actually changed.
      const { getUmidToken } = await import(/* webpackChunkName: "core-captcha" */ '../../src/core/captcha');
      return client.put<Success>(
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
