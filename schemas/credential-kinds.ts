// Credentials in use (issue 42): the kinds of credential whose uses the service records, and the rules the web shows
// (plain constants: web code may import them).

/** The credentials a client outside the browser authenticates with. */
export const CREDENTIAL_KINDS = ['token', 'ssh-key', 'packages-password'] as const;
/** A personal access token, an SSH key, or the artifact-repository password. */
export type CredentialKind = (typeof CREDENTIAL_KINDS)[number];

/** Whether a use was let through or refused. */
export const CREDENTIAL_USE_OUTCOMES = ['ok', 'refused'] as const;
/** What the checker answered. */
export type CredentialUseOutcome = (typeof CREDENTIAL_USE_OUTCOMES)[number];

/**
 * Why a use was refused (the product's own words are the slice's messages): `expired` credential, `read-only` key
 * pushing, `scope` not granted, `ip-whitelist` or other organisation policy, `not-member` of the repository's
 * organisation, `wrong-password`, `not-yet` (an artifact password before its effective time), `revoked`.
 */
export const CREDENTIAL_REFUSALS = [
  'expired',
  'read-only',
  'scope',
  'ip-whitelist',
  'org-policy',
  'not-member',
  'wrong-password',
  'not-yet',
  'revoked',
  'password-change',
] as const;
/** A reason a use was refused. */
export type CredentialRefusal = (typeof CREDENTIAL_REFUSALS)[number];

/** How long uses are kept (days); the housekeeping deletes older rows. */
export const CREDENTIAL_USE_RETENTION_DAYS = 90;
/** At most one row per credential, client address, outcome and this many ms: a busy CI job writes one a minute. */
export const CREDENTIAL_USE_THROTTLE_MS = 60_000;
/** Rows a timeline page holds. */
export const CREDENTIAL_TIMELINE_PAGE = 50;

/** Health marks (credential health, the security page): unused this many days counts as stale. */
export const STALE_AFTER_DAYS = [30, 90] as const;
/** Health marks: a credential expiring within this many days is flagged. */
export const EXPIRING_WITHIN_DAYS = 7;

/** The timeline's path (`GET`, `?kind=&id=&before=`): a core route, the web's drawer calls it. */
export const CREDENTIAL_USES_PATH = '/users/ajax/v1/my/credential-uses';
