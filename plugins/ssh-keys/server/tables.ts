/**
 * The ssh-keys slice's table (migration `030-credentials`).
 * Kysely sees them through the augmentation below, so the core schema names no plugin table.
 */

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

declare module '../../../server/db/schema' {
  interface DB {
    ssh_keys: SshKeysTable;
  }
}
