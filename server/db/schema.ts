/** Kysely table types. Times are epoch milliseconds and flags are 0/1 integers, identical in both dialects. */

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
}

/** Who belongs to which organisation. */
export interface MembershipsTable {
  org_id: string;
  user_id: string;
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
}

/** Consecutive failed sign-ins per lower-cased username string, existing or not. */
export interface LoginFailuresTable {
  username: string;
  count: number;
  locked_until: number | null;
  updated_at: number;
}

/** Free-form per-user preferences (language…). */
export interface PreferencesTable {
  user_id: string;
  key: string;
  value: string;
}

/** Personal access tokens; only the SHA-256 digest of the secret is stored. */
export interface PersonalAccessTokensTable {
  id: string;
  user_id: string;
  name: string;
  description: string;
  token_digest: string;
  /** JSON array of scope keys. */
  scopes: string;
  created_at: number;
  expires_at: number | null;
  last_used_at: number | null;
}

/** One usage or performance log entry from the web app, stored as posted (already capped by the client). */
export interface UsageLogsTable {
  id: string;
  user_id: string | null;
  received_at: number;
  entry: string;
}

/** E-mail activation tokens; only the SHA-256 of the token is stored, bound to one user and one address. */
export interface EmailTokensTable {
  token_hash: string;
  user_id: string;
  email: string;
  created_at: number;
  expires_at: number;
  /** Set when the token is spent; a spent token is refused. */
  used_at: number | null;
}

/** When a user was last sent an activation mail; the atomic update on it is the resend throttle. */
export interface EmailSendThrottleTable {
  user_id: string;
  last_sent_at: number;
}

/** Avatar files the service stored (DATA_DIR/avatars/<name>) and who uploaded them (the owner check). */
export interface AvatarUploadsTable {
  name: string;
  user_id: string;
  content_type: string;
  created_at: number;
}

/** SSH public keys for code hosting; the fingerprint is unique across all users. */
export interface SshKeysTable {
  id: string;
  user_id: string;
  name: string;
  /** ssh-rsa or ssh-ed25519. */
  key_type: string;
  /** Normalised `type base64 [comment]`, one line. */
  public_key: string;
  /** `SHA256:` + unpadded base64, as `ssh-keygen -lf` prints it. */
  fingerprint: string;
  /** read_only (clone/pull) or read_write (also push). */
  scope: string;
  /** Epoch ms after which the key is refused; null = never expires. */
  expires_at: number | null;
  last_used_at: number | null;
  created_at: number;
}

/** Artifact-repository credential of a user; only password digests are stored. */
export interface PackagesCredentialsTable {
  user_id: string;
  username: string;
  /** argon2id of the current password; null until first set. */
  password_hash: string | null;
  /** The password before the last reset, still valid until `effective_at`. */
  previous_password_hash: string | null;
  /** Epoch ms from which `password_hash` is accepted (reset + 10 s). */
  effective_at: number | null;
  created_at: number;
  updated_at: number;
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

/** The whole database as Kysely sees it. */
export interface DB {
  users: UsersTable;
  organizations: OrganizationsTable;
  memberships: MembershipsTable;
  org_apps: OrgAppsTable;
  app_admins: AppAdminsTable;
  app_permissions: AppPermissionsTable;
  sessions: SessionsTable;
  login_failures: LoginFailuresTable;
  preferences: PreferencesTable;
  personal_access_tokens: PersonalAccessTokensTable;
  usage_logs: UsageLogsTable;
  ssh_keys: SshKeysTable;
  packages_credentials: PackagesCredentialsTable;
  identities: IdentitiesTable;
  email_tokens: EmailTokensTable;
  email_send_throttle: EmailSendThrottleTable;
  avatar_uploads: AvatarUploadsTable;
}
