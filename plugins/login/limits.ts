/** Limits of the sign-in slice (no imports: safe in any bundle). */

/** Longest account name a sign-in or check may carry. */
export const USERNAME_INPUT_MAX = 256;
/** Longest password a sign-in may carry (a cap on hashing work; the rule itself is in schemas/password-rule). */
export const LOGIN_PASSWORD_INPUT_MAX = 1024;
/** Longest `next` URL accepted after logout or sign-in. */
export const NEXT_URL_MAX = 2048;
