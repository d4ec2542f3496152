/**
 * The packages-credential slice's table (migration `031-packages-credential`).
 * Kysely sees them through the augmentation below, so the core schema names no plugin table.
 */

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

declare module '../../../server/db/schema' {
  interface DB {
    packages_credentials: PackagesCredentialsTable;
  }
}
