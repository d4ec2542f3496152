/**
 * The profile slice's tables (migrations `010-profile`, `061-avatar-uploads`, `062-email-change-codes`,
 * `063-email-code-purpose`).
 * Kysely sees them through the augmentation below, so the core schema names no plugin table.
 */

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
  /** Bytes of the stored file, summed for the storage budget (migration 061; 0 for files stored before). */
  size: number;
  /** 1 while it is the uploader's avatar; 0 = the one pending upload, replaced by the next and removed after an hour. */
  in_use: number;
}

/**
 * The code mailed to the current address of an account without a password: it proves an e-mail change or the first
 * password (migrations `062-email-change-codes`, `063-email-code-purpose`); one per user, a new one replaces it.
 */
export interface EmailChangeCodesTable {
  user_id: string;
  /** SHA-256 of the code; the code itself is only in the mail. */
  code_hash: string;
  /** The current address it was sent to: a code proves a change only while that is still the address. */
  email: string;
  expires_at: number;
  /** What it proves (`EmailCodePurpose`): `email` (a change of the address) or `password` (the first password). */
  purpose: string;
}

declare module '../../../server/db/schema' {
  interface DB {
    email_change_codes: EmailChangeCodesTable;
    email_tokens: EmailTokensTable;
    email_send_throttle: EmailSendThrottleTable;
    avatar_uploads: AvatarUploadsTable;
  }
}
