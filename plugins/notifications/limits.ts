/** Limits of the message center, used by its contract, its service and its page (no imports: safe in any bundle). */

/** Most messages one list call answers. */
export const INBOX_PAGE_SIZE_MAX = 100;
/** Messages per page when the call names no size. */
export const INBOX_PAGE_SIZE_DEFAULT = 20;
/** Most ids one batch call (read or delete) names. */
export const INBOX_BATCH_MAX = 100;
/** Longest message id in a path or a batch. */
export const INBOX_ID_MAX = 64;
/** Longest continuation token. */
export const INBOX_TOKEN_MAX = 200;
/** Longest notice title an administrator may post. */
export const NOTICE_TITLE_MAX = 200;
/** Longest notice body an administrator may post. */
export const NOTICE_BODY_MAX = 4000;
/** Messages older than this many days are removed by the housekeeping (read or not). */
export const INBOX_RETENTION_DAYS = 180;

/** The applications a message comes from (the page's filter); each has a name in both languages. */
export const INBOX_APPS = ['account', 'packages', 'organization'] as const;
/** An application a message comes from. */
export type InboxApp = (typeof INBOX_APPS)[number];

/** The two tabs of the center. */
export const INBOX_TABS = ['all', 'unread'] as const;
/** A tab of the center. */
export type InboxTab = (typeof INBOX_TABS)[number];
