/**
 * The password-recovery slice's table (migration `051-password-recovery`).
 * Kysely sees it through the augmentation below, so the core schema names no plugin table.
 */

/**
 * One recovery, opened by a solved slider: the mailed code (hashed, with its tries) and then the reset ticket
 * (hashed). Only digests are stored; the flow id, code and ticket exist in the browser's memory and the mail.
 */
export interface RecoveryFlowsTable {
  /** SHA-256 of the flow id the page holds. */
  id_hash: string;
  user_id: string;
  /** Lower-cased username the flow is for; calls for another name are refused. */
  username: string;
  created_at: number;
  expires_at: number;
  /** SHA-256 of flow id + code; null when no code is outstanding (none sent, spent or ended by 5 wrong tries). */
  code_hash: string | null;
  code_expires_at: number | null;
  code_tries: number;
  /** SHA-256 of the reset ticket a right code earned; null before, and after it was used. */
  ticket_hash: string | null;
  ticket_expires_at: number | null;
}

declare module '../../../server/db/schema' {
  interface DB {
    recovery_flows: RecoveryFlowsTable;
  }
}
