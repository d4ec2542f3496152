import type { RequestClient } from '../../src/core/request';
import type { Success } from '../../schemas/common';
import type { AuthenticationOptions, FactorProof } from '../../schemas/second-factor';
import type {
  LoginAnswer,
  LoginBody,
  LoginResult,
  PasskeySignInBody,
  PendingBind,
  UsernameCheckAnswer,
} from './contract';
import { SECOND_STEP_PATHS } from './limits';

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
     * directory 400 (not enabled), 409 (account conflict) or 503 (unreachable), in the error shape. An account with a
     * second factor answers the step due instead of a session (`second_factor`).
     */
    login: (body: LoginBody) =>
      client.post<LoginAnswer>('/users/ajax/login', body, {
        handleUnauthorized: false,
        ...(body.method && body.method !== 'password' ? { timeoutMs: DIRECTORY_TIMEOUT_MS } : {}),
      }),
    /** Ends the waiting sign-in (this browser's httpOnly cookie names it) with the second factor. */
    secondFactor: (proof: FactorProof) =>
      client.post<LoginResult>(SECOND_STEP_PATHS.secondFactor, proof, { handleUnauthorized: false }),
    /** WebAuthn options for the waiting sign-in's passkeys (single-use challenge). */
    secondFactorOptions: () =>
      client.post<AuthenticationOptions>(SECOND_STEP_PATHS.secondFactorOptions, {}, { handleUnauthorized: false }),
    /** WebAuthn options for a passkey sign-in: any discoverable credential of this site. */
    passkeyOptions: () =>
      client.post<AuthenticationOptions>(SECOND_STEP_PATHS.passkeyOptions, {}, { handleUnauthorized: false }),
    /** A passkey sign-in: the assertion names the account; no password and no second step. */
    passkey: (body: PasskeySignInBody) =>
      client.post<LoginResult>(SECOND_STEP_PATHS.passkey, body, { handleUnauthorized: false }),
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
