/** Limits of the SSH key slice, used by its contract, its service and its page (no imports: safe in any bundle). */

/** Longest paste accepted, whitespace included. */
export const SSH_KEY_MAX_LENGTH = 5000;
/** Smallest RSA modulus accepted, in bits. */
export const SSH_RSA_MIN_BITS = 2048;
/** Longest key name. */
export const SSH_KEY_NAME_MAX = 200;
/** Longest key id in a path. */
export const SSH_KEY_ID_MAX = 64;

/** Longest repository path a git client may name over SSH (`<organisation>/<repo>.git`). */
export const GIT_REPOSITORY_PATH_MAX = 300;
/** Longest repository name (the part after the organisation, `.git` included). */
export const GIT_REPOSITORY_NAME_MAX = 100;
