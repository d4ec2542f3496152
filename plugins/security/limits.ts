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

/**
 * What a history entry records. Kinds group them for the filter (`HISTORY_GROUPS`): sign-in, lock, password,
 * e-mail, device, credential, session, second factor.
 */
export const HISTORY_KINDS = [
  'sign-in.succeeded',
  'sign-in.failed',
  'account.locked',
  'account.unlocked',
  'password.changed',
  'email.changed',
  'sign-in.new-device',
  'credential.created',
  'credential.deleted',
  'session.ended',
  'reauth.succeeded',
  'reauth.failed',
  'account.not-me',
  // The second factor (issue 41): an app or a passkey added or removed, recovery codes made or one used.
  'second-factor.added',
  'second-factor.removed',
  'recovery-codes.generated',
  'recovery-code.used',
  // Credentials in use (issue 42): a token, SSH key or the artifact password refused outside the browser; "revoke
  // all stale" on the credential health.
  'credential.refused',
  'credentials.stale-revoked',
  // A token regenerated (a new secret, the old one stopping) or an expired one re-created (issue 42).
  'credential.regenerated',
  'credential.recreated',
] as const;

/** The filter's groups of kinds. */
export const HISTORY_GROUPS = [
  'sign-in',
  'lock',
  'password',
  'email',
  'device',
  'credential',
  'session',
  'second-factor',
] as const;

/** Why a sign-in (or a proof) failed. */
export const FAILURE_REASONS = [
  'wrong-password',
  'locked',
  'slider-failed',
  'directory-refused',
  'third-party-refused',
  'wrong-second-factor',
] as const;

/**
 * The calls, once (method and path). `sessions`: GET list; `session`: DELETE one (not the current: that is sign out);
 * `endOthers`: POST; `trustedBrowsers`: GET; `trustedBrowser`: DELETE ("forget"); `history`: GET page;
 * `historyExport`: GET CSV (`text/csv; charset=utf-8`, UTF-8 BOM, header row in the caller's language);
 * `notMe`: POST; `credentialHealth`: GET; `revokeStale`: POST.
 */
export const SECURITY_PATHS = {
  sessions: '/users/ajax/v1/my/sessions',
  session: '/users/ajax/v1/my/sessions/:id',
  endOthers: '/users/ajax/v1/my/sessions:end-others',
  trustedBrowsers: '/users/ajax/v1/my/trusted-browsers',
  trustedBrowser: '/users/ajax/v1/my/trusted-browsers/:id',
  history: '/users/ajax/v1/my/history',
  historyExport: '/users/ajax/v1/my/history.csv',
  notMe: '/users/ajax/v1/my/security:not-me',
  // The second factor (issue 41); every change needs a recent proof (`config.reauth`).
  twoFactor: '/users/ajax/v1/my/two-factor',
  totp: '/users/ajax/v1/my/two-factor/totp',
  totpConfirm: '/users/ajax/v1/my/two-factor/totp:confirm',
  passkeyOptions: '/users/ajax/v1/my/two-factor/passkeys:options',
  passkeys: '/users/ajax/v1/my/two-factor/passkeys',
  passkey: '/users/ajax/v1/my/two-factor/passkeys/:id',
  recoveryCodes: '/users/ajax/v1/my/two-factor/recovery-codes',
  // Credential health (issue 42): every credential and session with its marks; revoking the stale ones needs a proof.
  credentialHealth: '/users/ajax/v1/my/credential-health',
  revokeStale: '/users/ajax/v1/my/credential-health:revoke-stale',
} as const;

/** The most credentials "revoke all stale" names in its body (what the page showed; more than any account holds). */
export const REVOKE_STALE_ITEMS_MAX = 1000;
