/** Limits of the switch-organisation slice, used by its contract, its service and its pages (no imports: safe in any bundle). */

/** Organisations per page of the chooser when the request names none (the specification's page size). */
export const ORG_PAGE_SIZE_DEFAULT = 50;
/** Largest page of organisations the list answers. */
export const ORG_PAGE_SIZE_MAX = 50;
/** Longest organisation, user or app id in a path, query or body. */
export const ORG_ID_MAX = 64;
/** Longest organisation name (as the account service stores it). */
export const ORG_NAME_MAX = 200;
/**
 * Longest `next_token` accepted: base64url of the JSON key (name, id) of a page's last row, at worst six bytes
 * per character (JSON escapes) — so a token of any organisation name the service stores fits.
 */
export const ORG_NEXT_TOKEN_MAX = Math.ceil(((ORG_NAME_MAX + ORG_ID_MAX) * 6 + 8) / 3) * 4;
/** Longest help-link id (`helpCenter`, `accessToken`…). */
export const HELP_LINK_ID_MAX = 64;
/** Most user ids one members lookup may name. */
export const MEMBERS_LOOKUP_MAX = 100;
/** Longest `userIds` query (100 ids of 64 characters, comma separated). */
export const MEMBERS_QUERY_MAX = MEMBERS_LOOKUP_MAX * (ORG_ID_MAX + 1);
/** Time the web client waits for a members lookup before falling back to empty names, in ms. */
export const MEMBERS_LOOKUP_TIMEOUT_MS = 5000;
