/** Limits of the password-recovery slice (no imports: safe in any bundle). */

/** Digits of the mailed verification code. */
export const RECOVERY_CODE_LENGTH = 6;
/** How long a mailed code is valid (ms). */
export const RECOVERY_CODE_TTL_MS = 10 * 60 * 1000;
/** Wrong entries that end a code; a new one must be requested. */
export const RECOVERY_CODE_MAX_TRIES = 5;
/** One code mail per account per this period (ms); the page counts the seconds down. */
export const RECOVERY_RESEND_MS = 60 * 1000;
/** How long the reset ticket from a verified code is valid (ms). */
export const RECOVERY_TICKET_TTL_MS = 10 * 60 * 1000;
/** How long a recovery started with a solved slider may take in all (ms). */
export const RECOVERY_FLOW_TTL_MS = 30 * 60 * 1000;
/** Longest flow id or ticket the service reads. */
export const RECOVERY_ID_MAX = 128;

/**
 * Where the recovery of an account with a second factor gets WebAuthn options for its passkeys (issue 41): POST
 * `{ ticket }` → `AuthenticationOptions`. Under the account path, as the other recovery calls.
 */
export const recoveryFactorOptionsPath = (username: string) =>
  `/users/ajax/users/${encodeURIComponent(username)}/password:second-factor-options`;
