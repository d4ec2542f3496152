import type { RequestClient } from '../../src/core/request';
import type { Success } from '../../schemas/common';
import type { LoginResult, UsernameCheckAnswer } from './contract';

/** Calls of the sign-in page. */
export function loginApi(client: RequestClient) {
  return {
    /**
     * Account-and-password sign-in, with a slider pass once the service asks for one; failures answer 401
     * (incorrect), 423 (locked) or 403 (CaptchaRequired / CaptchaInvalid) in the error shape.
     */
    login: (username: string, password: string, captchaPass?: string) =>
      client.post<LoginResult>(
        '/users/ajax/login',
        captchaPass ? { username, password, captcha_pass: captchaPass } : { username, password },
        { handleUnauthorized: false },
      ),
    /** Whether the next sign-in of the name needs the slider (asked after a refused one). */
    check: (username: string) =>
      client.get<UsernameCheckAnswer>(`/users/ajax/users/${encodeURIComponent(username)}/check`, undefined, {
        handleUnauthorized: false,
      }),
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
