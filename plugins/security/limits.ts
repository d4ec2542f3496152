/** Limits of the security slice, used by its contract, its service and its page (no imports: safe in any bundle). */

/** Longest session or trusted-browser id in a path (ids are 32 hex characters). */
export const SECURITY_ID_MAX = 64;
/** Days the account's history is kept. */
export const HISTORY_DAYS = 90;
/** History entries per page, by default and at most. */
export const HISTORY_PAGE_DEFAULT = 50;
/** History entries per page at most. */
export const HISTORY_PAGE_MAX = 100;
/** Longest history cursor accepted (an opaque string the previous page answered). */
export const HISTORY_CURSOR_MAX = 200;
