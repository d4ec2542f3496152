import type { UsernameCheckAnswer } from '../../schemas/account-check';
import type { RequestClient } from '../../src/core/request';
import type { Success } from '../../schemas/common';
import type { EmailCaptchaSent, RecoveryFlow, ResetTicket } from './contract';

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
    /** Sets the new password with the ticket; every session of the account ends. */
    reset: (username: string, ticket: string, newPassword: string) =>
      client.put<Success>(`${userPath(username)}/password:reset`, { ticket, new_password: newPassword }, PUBLIC),
  };
}
