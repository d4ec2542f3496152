/**
 * The access-tokens slice's table. Its CREATE TABLE stays in the core's `001-initial` (a recorded migration
 * never changes), but only this slice reads or writes it.
 * Kysely sees them through the augmentation below, so the core schema names no plugin table.
 */

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
  /** The token that replaced this one by a regeneration (migration 074); its secret works only until `expires_at`. */
  replaced_by: string | null;
}

declare module '../../../server/db/schema' {
  interface DB {
    personal_access_tokens: PersonalAccessTokensTable;
  }
}
