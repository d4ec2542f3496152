/** Limits of the second factor, used by the contracts, the service and the pages (no imports: safe in any bundle). */

/** Digits of an authenticator-app code. */
export const TOTP_DIGITS = 6;
/** Seconds one authenticator-app code stands for (RFC 6238's step). */
export const TOTP_PERIOD_SECONDS = 30;
/** Steps of clock drift accepted either side of now. */
export const TOTP_DRIFT_STEPS = 1;
/** A code of the app as it is typed. */
export const TOTP_CODE_PATTERN = '^[0-9]{6}$';
/** Recovery codes made at once. */
export const RECOVERY_CODE_COUNT = 10;
/** Left recovery codes at which the security page warns. */
export const RECOVERY_CODES_LOW = 2;
/** Characters of a recovery code (base32, without the dashes it is shown with: `xxxx-xxxx-xxxx-xxxx`). */
export const RECOVERY_CODE_CHARS = 16;
/** A recovery code as it may be typed: base32 in groups, with dashes or spaces, any case. */
export const RECOVERY_CODE_INPUT_PATTERN = '^[A-Za-z2-7 -]{16,24}$';
/** Seconds a WebAuthn challenge may be answered in (single use). */
export const WEBAUTHN_CHALLENGE_SECONDS = 300;
/** Minutes a sign-in may wait for its second factor before it starts again. */
export const SECOND_FACTOR_STEP_MINUTES = 10;
/** Passkeys and security keys an account may register. */
export const WEBAUTHN_CREDENTIALS_MAX = 10;
/** Longest name of a passkey. */
export const FACTOR_NAME_MAX = 64;
/** Longest WebAuthn credential id (base64url). */
export const WEBAUTHN_ID_MAX = 1400;
/** Longest other base64url field of a WebAuthn answer (attestation, client data, signature). */
export const WEBAUTHN_FIELD_MAX = 16_384;
/** Longest grace period an organisation may give its members to add a second factor (days). */
export const SECOND_FACTOR_GRACE_DAYS_MAX = 90;
