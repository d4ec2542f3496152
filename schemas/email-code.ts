/**
 * The code mailed to an account's current address, as the wire knows it: an account without a password proves an
 * e-mail change with it (profile), and so does its first password (login). Plain constants only (no TypeBox), so
 * any bundle may import them.
 */

/** Digits of the code. */
export const EMAIL_CODE_LENGTH = 6;

/** What a code may prove: an e-mail change, or setting the account's first password. A code proves only its own. */
export const EMAIL_CODE_PURPOSES = ['email', 'password'] as const;
/** One purpose of a code. */
export type EmailCodePurpose = (typeof EMAIL_CODE_PURPOSES)[number];
