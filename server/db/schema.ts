/** Kysely table types. Times are epoch milliseconds and flags are 0/1 integers, identical in both dialects. */

import type { ColorScheme } from '../../schemas/color-scheme';

/** A person who can sign in. */
export interface UsersTable {
  id: string;
  username: string;
  /** Lower-cased username; the unique key, so case variants are one account. */
  username_lower: string;
  name: string;
  email: string | null;
  email_verified: number;
  avatar: string | null;
  language: string | null;
  must_change_password: number;
  /** argon2id PHC string; null for accounts that only sign in elsewhere. */
  password_hash: string | null;
  /** Organisation the user works in now (page config orgId). */
  current_org_id: string | null;
  /** The theme the web app paints for this account (migration 064); `system` follows the device. */
  color_scheme: ColorScheme;
  /** When its owner locked it with "this wasn't me" (migration 069); null = not held. Only an administrator lifts it. */
  held_at: number | null;
  created_at: number;
  updated_at: number;
}

/** A tenant; apps are installed per organisation. */
export interface OrganizationsTable {
  id: string;
  name: string;
  name_lower: string;
  logo: string | null;
  created_at: number;
  /** JSON array of normalised CIDRs a request in this organisation's context must come from; null = anywhere. */
  ip_whitelist: string | null;
  /** Epoch ms from which the licence is expired (requests in the organisation refused); null = no expiry. */
  licence_expires_at: number | null;
  /** Epoch ms from which the standard-edition order is expired; null = no order or no expiry. */
  order_expires_at: number | null;
  /** Epoch ms since when members must have a second factor (migration 071); null/absent = not required. */
  second_factor_required_at?: number | null;
  /** Days after `second_factor_required_at` a member without one is still admitted (warned); null = none. */
  second_factor_grace_days?: number | null;
}

/** Who belongs to which organisation. */
export interface MembershipsTable {
  org_id: string;
  user_id: string;
  /** 'member' or 'admin' (an organisation administrator, set with the CLI's set-org-admin). */
  role: string;
  created_at: number;
}

/** Applications installed in an organisation, keyed by app key (codeup, packages, lingma…). */
export interface OrgAppsTable {
  org_id: string;
  app_key: string;
  app_id: string;
  installed_at: number;
}

/** Administrators of one app in one organisation. */
export interface AppAdminsTable {
  org_id: string;
  app_key: string;
  user_id: string;
}

/** Named permissions a user holds in one app of one organisation. */
export interface AppPermissionsTable {
  org_id: string;
  app_key: string;
  user_id: string;
  permission: string;
}

/** Server-side sessions; only a digest of the cookie value is stored. */
export interface SessionsTable {
  id_hash: string;
  user_id: string;
  csrf_token: string;
  created_at: number;
  last_seen_at: number;
  /** The session's public name on the security page (migration 065): random, never the cookie nor its digest. */
  handle: string;
  /** The browser's User-Agent at sign-in, cut to 512 characters; null when it sent none. */
  user_agent: string | null;
  /** The client address the session was last active from (written with `last_seen_at`). */
  address: string | null;
  /** How it was signed in: `password`, `ldap`, `ad`, a provider id; `unknown` for sessions from before 065. */
  method: string;
  /** When the session last proved its owner (a sign-in, a re-authentication), epoch ms (migration 066). */
  proved_at: number;
}

/** Consecutive failed sign-ins per lower-cased username string, existing or not. */
export interface LoginFailuresTable {
  username: string;
  count: number;
  locked_until: number | null;
  updated_at: number;
}

/** A key the service signs with (e.g. the device mark's HMAC key), shared by every instance. */
export interface ServiceSecretsTable {
  /** What the key is for, e.g. `device-mark`. */
  name: string;
  /** base64url of 32 random bytes. */
  value: string;
  created_at: number;
}

/** Free-form per-user preferences (language…). */
export interface PreferencesTable {
  user_id: string;
  key: string;
  value: string;
}

/** One usage or performance log entry from the web app, stored as posted (already capped by the client). */
export interface UsageLogsTable {
  id: string;
  user_id: string | null;
  received_at: number;
  entry: string;
}

/** A user's binding to an external account: DingTalk, Feishu, API synchronisation or an identity provider. */
export interface IdentitiesTable {
  id: string;
  user_id: string;
  /** dingtalk | feishu | api | idp. */
  provider: string;
  /** Key of the credential (app or identity source) the account belongs to. */
  credential: string;
  /** The account id at the provider. */
  open_id: string;
  /** Display name (identity source name, or the provider name). */
  name: string;
  created_at: number;
}

/** A slider puzzle waiting to be solved; the gap position never leaves the service. */
export interface CaptchaPuzzlesTable {
  /** SHA-256 of the id the browser holds. */
  id_hash: string;
  /** Lower-cased username the puzzle was asked for; its pass serves only that name. */
  username: string;
  x: number;
  y: number;
  tries: number;
  solved: number;
  created_at: number;
  expires_at: number;
}

/** A pass earned by a solved puzzle: one action for one username, briefly. */
export interface CaptchaPassesTable {
  pass_hash: string;
  username: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** A fixed-window counter of a limit (per address, per account…), shared by every instance. */
export interface RateLimitsTable {
  /** `<limit name>:<subject>`, e.g. `check:ip:203.0.113.5`. */
  key: string;
  window_start: number;
  window_ms: number;
  count: number;
}

/**
 * An account's authenticator app (migration 070): one per account. A new secret waits in `pending_enc` until its first
 * code confirms it, so setting up the app again leaves the confirmed one working meanwhile.
 */
export interface TotpFactorsTable {
  user_id: string;
  /** The confirmed base32 secret sealed with the factor key (AES-256-GCM, bound to the account); null before one. */
  secret_enc: string | null;
  /** When the secret in `secret_enc` was confirmed; null = no app (the account has no TOTP factor). */
  confirmed_at: number | null;
  /** The latest 30-second step a code was accepted for: a code of that step or an earlier one is refused. */
  last_step: number | null;
  /** A new secret waiting for its first code, sealed like `secret_enc`; null when none waits. */
  pending_enc: string | null;
  /** When the waiting secret was made. */
  pending_at: number | null;
  created_at: number;
}

/** A passkey or security key of an account (migration 070). */
export interface WebauthnCredentialsTable {
  /** Our id (what the security page names it by), not the authenticator's. */
  id: string;
  user_id: string;
  /** The authenticator's credential id, base64url; unique across accounts. */
  credential_id: string;
  /** The COSE public key, base64url. */
  public_key: string;
  /** The signature counter last seen; an assertion must move it forward (0 forever for authenticators without one). */
  counter: number;
  /** JSON array of the transports the browser reported (usb, internal, hybrid…); null when none. */
  transports: string | null;
  /** 1 when the browser said it is discoverable (credProps.rk): it can sign in without a name. */
  discoverable: number;
  name: string;
  created_at: number;
  last_used_at: number | null;
}

/** One recovery code of an account (migration 070): only its keyed hash is kept. */
export interface RecoveryCodesTable {
  user_id: string;
  /** base64url HMAC-SHA256 of the normalised code under a key derived from the factor key. */
  code_hash: string;
  /** When it was spent; null = still usable. */
  used_at: number | null;
  created_at: number;
}

/** A WebAuthn challenge given out and not yet answered (migration 070): single use, short lived. */
export interface WebauthnChallengesTable {
  /** Hex SHA-256 of the challenge (the challenge itself is never stored). */
  challenge_hash: string;
  /** The account it was issued for; null for a passkey sign-in (anyone's discoverable credential may answer). */
  user_id: string | null;
  /** `register` (a new passkey) or `assert` (a sign-in or a second factor). */
  purpose: string;
  expires_at: number;
}

/**
 * The core's tables as Kysely sees them; an interface so each slice adds its own tables with
 * `declare module` (see `plugins/<id>/server/tables.ts`).
 */
/** One recorded use of a credential (migration 073; issue 42): the first of its minute from its address. */
export interface CredentialUsesTable {
  id: string;
  /** `token`, `ssh-key` or `packages-password` (CREDENTIAL_KINDS). */
  kind: string;
  /** The token's or key's id; the account's id for the artifact password. */
  credential_id: string;
  user_id: string;
  at: number;
  /** `at` in whole minutes: part of the unique key that throttles the rows. */
  minute: number;
  address: string;
  client: string | null;
  action: string;
  /** `ok` or `refused`. */
  outcome: string;
  /** Why it was refused (CREDENTIAL_REFUSALS); null when let through. */
  reason: string | null;
}

export interface DB {
  users: UsersTable;
  organizations: OrganizationsTable;
  memberships: MembershipsTable;
  org_apps: OrgAppsTable;
  app_admins: AppAdminsTable;
  app_permissions: AppPermissionsTable;
  sessions: SessionsTable;
  login_failures: LoginFailuresTable;
  /** The lock of failures from browsers carrying the account's device mark (same shape as `login_failures`). */
  login_failures_marked: LoginFailuresTable;
  service_secrets: ServiceSecretsTable;
  preferences: PreferencesTable;
  usage_logs: UsageLogsTable;
  identities: IdentitiesTable;
  captcha_puzzles: CaptchaPuzzlesTable;
  captcha_passes: CaptchaPassesTable;
  rate_limits: RateLimitsTable;
  totp_factors: TotpFactorsTable;
  webauthn_credentials: WebauthnCredentialsTable;
  recovery_codes: RecoveryCodesTable;
  webauthn_challenges: WebauthnChallengesTable;
  credential_uses: CredentialUsesTable;
}
