import type { RequestClient } from '../../src/core/request';
import type { Success } from '../../schemas/common';
import type { LoginBody, LoginResult, PendingBind, UsernameCheckAnswer } from './contract';

/** Where this browser's third-party account waiting to be bound is read (GET) and forgotten (DELETE). */
const PENDING_BIND_URL = '/users/ajax/login/pending-bind';

/**
 * How long a directory sign-in may take: the service answers DirectoryUnavailable within 5 s when the directory is
 * down, which the client's 5 s default would cut off as a network error.
 */
const DIRECTORY_TIMEOUT_MS = 10_000;

/** Calls of the sign-in page. */
export function loginApi(client: RequestClient) {
  return {
    /**
     * Sign-in with the account's password or a directory's (`method`), with a slider pass once the service asks for
     * one; failures answer 401 (incorrect), 423 (locked), 403 (CaptchaRequired / CaptchaInvalid), and for a
     * directory 400 (not enabled), 409 (account conflict) or 503 (unreachable), in the error shape.
     */
    login: (body: LoginBody) =>
      client.post<LoginResult>('/users/ajax/login', body, {
        handleUnauthorized: false,
        ...(body.method && body.method !== 'password' ? { timeoutMs: DIRECTORY_TIMEOUT_MS } : {}),
      }),
    /** The third-party account that came back unbound in this browser; 404 PendingBindNotFound when none waits. */
    pendingBind: () => client.get<PendingBind>(PENDING_BIND_URL, undefined, { handleUnauthorized: false }),
    /** Forgets the waiting third-party account (the user signs in without binding it). */
    cancelPendingBind: () => client.delete<unknown>(PENDING_BIND_URL, undefined, { handleUnauthorized: false }),
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
