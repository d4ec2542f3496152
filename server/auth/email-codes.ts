// The core's view of the codes mailed to an account's current address: the slice that mails and keeps them (profile)
// implements it through `ServerProvides.emailCodes`; another slice (login: setting a first password) reaches it as
// `ctx.emailCodes` and never imports the profile slice.
import type { EmailCodePurpose } from '../../schemas/email-code';

/** Spends the codes mailed to an account's current address; implemented by a slice, absent (null) otherwise. */
export interface EmailCodes {
  /**
   * Spends the account's code when `code` is the one mailed for `purpose` to its current address and has not
   * expired: true once (of parallel requests with the same code, one wins); false otherwise, and nothing is spent.
   */
  take(userId: string, purpose: EmailCodePurpose, code: string): Promise<boolean>;
}
