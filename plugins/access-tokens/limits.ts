/** Limits of the personal-access-token slice, used by its contract, its service and its page (no imports: safe in any bundle). */

/** Longest token name (the settings page's limit). */
export const TOKEN_NAME_MAX = 200;
/** Shortest description: the specification asks for 1 to 200 characters. */
export const TOKEN_DESCRIPTION_MIN = 1;
/** Longest description. */
export const TOKEN_DESCRIPTION_MAX = 200;
/** Live and expired tokens one person may hold; beyond it old ones must be deleted first. */
export const MAX_TOKENS_PER_USER = 200;
/** Expiry presets offered by the create drawer, in days from today. */
export const EXPIRY_PRESET_DAYS = [7, 30, 60, 90] as const;
/** Page size of the list when the request names none. */
export const TOKEN_PAGE_SIZE_DEFAULT = 20;
/** Largest page the list answers. */
export const TOKEN_PAGE_SIZE_MAX = 100;
/** Most grants one token may carry in a request. */
export const TOKEN_SCOPES_MAX = 100;
/** Longest grant string (`<area>:<resource>:<read|write>`). */
export const TOKEN_SCOPE_KEY_MAX = 100;
/** Longest token or user id in a path or body. */
export const TOKEN_ID_MAX = 64;
/** Longest grace, in minutes, during which a regenerated token's old secret keeps working (24 h). */
export const TOKEN_GRACE_MINUTES_MAX = 24 * 60;
/** Graces the regenerate dialog offers, in minutes: at once, one hour, a day. */
export const TOKEN_GRACE_PRESETS_MINUTES = [0, 60, TOKEN_GRACE_MINUTES_MAX] as const;
