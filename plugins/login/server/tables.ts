/** The sign-in slice's tables for directories and third-party sign-in (migration `054-sign-in-sources`). */

/** An LDAP or Windows AD directory people sign in through; `org_key` '' is the instance's. */
export interface SignInDirectoriesTable {
  id: string;
  /** `ldap` or `ad` (DIRECTORY_KINDS). */
  kind: string;
  /** The organisation id it serves, or '' for the whole instance. */
  org_key: string;
  /** Display name (the identity-provider page shows it). */
  name: string;
  /** `ldap://host:port` or `ldaps://host:port`. */
  url: string;
  /** 1: upgrade an `ldap://` connection with StartTLS before binding. */
  start_tls: number;
  /** PEM file of the CA that signed the directory's certificate; null: the system's CAs. */
  ca_file: string | null;
  bind_dn: string;
  /** Where the bind password is: `env:NAME` or `file:/path` (never the password). */
  bind_secret_ref: string;
  base_dn: string;
  /** The filter that selects people who may sign in (disabled people excluded by it). */
  user_filter: string;
  attr_login: string;
  attr_name: string;
  attr_email: string;
  /** Connect and operation timeout (ms). */
  timeout_ms: number;
  enabled: number;
  updated_at: number;
}

/** A third-party OAuth 2.0 client of this instance (DingTalk, Lark, WeCom). */
export interface OAuthProvidersTable {
  /** OAUTH_PROVIDERS. */
  provider: string;
  client_id: string;
  /** Where the client secret is: `env:NAME` or `file:/path` (never the secret). */
  secret_ref: string;
  authorize_url: string;
  token_url: string;
  userinfo_url: string;
  scope: string;
  /** Field of the user-info answer holding the account id (dotted path allowed). */
  id_field: string;
  /** Field of the user-info answer holding the display name. */
  name_field: string;
  enabled: number;
  updated_at: number;
}

/** A started third-party sign-in: the `state` (digest), its browser (cookie digest) and the PKCE verifier. */
export interface OAuthStatesTable {
  state_hash: string;
  browser_hash: string;
  /** The provider; `reauth:<provider>` for a signed-in account's re-authentication round trip. */
  provider: string;
  code_verifier: string;
  next_url: string | null;
  expires_at: number;
}

/** A third-party account that came back unbound, waiting for a password sign-in in the same browser to bind it. */
export interface OAuthPendingBindsTable {
  ticket_hash: string;
  provider: string;
  open_id: string;
  display_name: string;
  expires_at: number;
}

/**
 * A sign-in waiting for its second factor (migration `072-sign-in-steps`): the first step passed, no session exists
 * yet. Named by the digest of the ticket its browser holds; single use, short lived.
 */
export interface SignInStepsTable {
  /** SHA-256 of the ticket in the browser's cookie. */
  ticket_hash: string;
  user_id: string;
  /** How the first step signed in: `password`, `ldap`, `ad`, or a third-party provider. */
  method: string;
  /** The lockout counter the first step counted in (its name), so the factor's answers count there too. */
  lock_key: string;
  /** `marked` or `unmarked`: the lock of the browser that passed the first step. */
  lock: string;
  address: string | null;
  user_agent: string | null;
  /** Where a third-party sign-in goes afterwards (validated when it started). */
  next_url: string | null;
  /** A third-party account the first step asked to bind (taken from the pending bind), bound after the factor. */
  bind_provider: string | null;
  bind_open_id: string | null;
  bind_name: string | null;
  created_at: number;
  expires_at: number;
}

declare module '../../../server/db/schema' {
  interface DB {
    sign_in_steps: SignInStepsTable;
    sign_in_directories: SignInDirectoriesTable;
    oauth_providers: OAuthProvidersTable;
    oauth_states: OAuthStatesTable;
    oauth_pending_binds: OAuthPendingBindsTable;
  }
}
