/** Limits of the sign-in slice (no imports: safe in any bundle). */

/** Longest account name a sign-in or check may carry. */
export const USERNAME_INPUT_MAX = 256;
/** Longest password a sign-in may carry (a cap on hashing work; the rule itself is in schemas/password-rule). */
export const LOGIN_PASSWORD_INPUT_MAX = 1024;
/** Longest `next` URL accepted after logout or sign-in. */
export const NEXT_URL_MAX = 2048;

/**
 * The second step's calls (issue 41). `secondFactor`: POST a `FactorProof` for the waiting sign-in → `LoginResult`;
 * `secondFactorOptions`: POST → WebAuthn options for the waiting sign-in's passkeys; `passkeyOptions`: POST →
 * options for a passkey sign-in (any discoverable credential); `passkey`: POST the assertion → `LoginResult`.
 */
export const SECOND_STEP_PATHS = {
  secondFactor: '/users/ajax/login/second-factor',
  secondFactorOptions: '/users/ajax/login/second-factor:options',
  passkeyOptions: '/users/ajax/login/passkey:options',
  passkey: '/users/ajax/login/passkey',
} as const;
