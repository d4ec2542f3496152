import type { UsernameCheckAnswer } from '../../schemas/account-check';
import type { RequestClient } from '../../src/core/request';
import type { Success } from '../../schemas/common';
import type { AuthenticationOptions, FactorProof } from '../../schemas/second-factor';
import type { EmailCaptchaSent, PasswordResetBody, RecoveryFlow, ResetTicket } from './contract';
import { recoveryFactorOptionsPath } from './limits';

/** The account path of the recovery calls: the name is one path segment, so it is URL-encoded. */
function userPath(username: string): string {
  return `/users/ajax/users/${encodeURIComponent(username)}`;
}

/** All recovery calls are public (no session): a 401 is never a lost session here. */
const PUBLIC = { handleUnauthorized: false } as const;

/** Calls of the forgot-password wizard. */
export function resetPasswordApi(client: RequestClient) {
  return {
    /** With a pass solved for the name: whether the account exists and has an e-mail (the pass is not spent). */
    check: (username: string, pass: string) =>
      client.get<UsernameCheckAnswer>(`${userPath(username)}/check`, undefined, {
        ...PUBLIC,
        headers: { 'X-Captcha-Pass': pass },
      }),
    /** Opens the recovery with the same pass (spent here): the flow id and the masked e-mail. */
    retrieve: (username: string, pass: string) =>
      client.post<RecoveryFlow>(`${userPath(username)}/password:retrieve`, { captcha_pass: pass }, PUBLIC),
    /** Mails a (new) 6-digit code to the account's e-mail. */
    sendCode: (username: string, flow: string) =>
      client.post<EmailCaptchaSent>(`${userPath(username)}/emailCaptcha`, { flow }, PUBLIC),
    /** Checks the mailed code; a right one earns the one-time reset ticket. */
    verifyCode: (username: string, flow: string, code: string) =>
      client.post<ResetTicket>(`${userPath(username)}/emailCaptcha:verify`, { flow, code }, PUBLIC),
    /**
     * Sets the new password with the ticket; every session of the account ends. An account with a second factor
     * answers it here too (`proof`); until it is right nothing changes and the ticket stays.
     */
    reset: (username: string, ticket: string, newPassword: string, proof?: FactorProof) => {
      const body: PasswordResetBody = { ticket, new_password: newPassword };
      if (proof) body.second_factor = proof;
      return client.put<Success>(`${userPath(username)}/password:reset`, body, PUBLIC);
    },
    /** WebAuthn options to answer the recovery's second factor with one of the account's passkeys. */
    factorOptions: (username: string, ticket: string) =>
      client.post<AuthenticationOptions>(recoveryFactorOptionsPath(username), { ticket }, PUBLIC),
  };
}
