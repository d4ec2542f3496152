import type { AppContext } from '../context';
import type { CredentialHealthEntry } from '../plugin';
import type { CredentialKind } from '../../schemas/credential-kinds';

// Credential health (issue 42): what the slices' `credentialHealth` sources share, so each keeps only its own table.

/** A stored credential as a slice's health source reads it from its own table. */
export interface StoredCredential {
  id: string;
  name: string;
  created_at: number;
  expires_at: number | null;
  /** The slice's own "last used" column (written before uses were recorded, and kept past their 90 days). */
  last_used_at: number | null;
}

/**
 * The health entries of stored credentials: the last use from `ctx.credentialUses`, else the slice's own column with
 * no address (a use older than the uses' 90-day retention, or from before they were recorded) — so a credential used
 * 100 days ago reads "unused for 90 days", not "never used".
 */
export async function healthEntries(
  ctx: AppContext,
  kind: CredentialKind,
  rows: readonly StoredCredential[],
): Promise<CredentialHealthEntry[]> {
  const uses = await ctx.credentialUses.lastUses(
    kind,
    rows.map((r) => r.id),
  );
  return rows.map((r) => {
    const use = uses.get(r.id);
    const column = r.last_used_at == null ? null : Number(r.last_used_at);
    return {
      kind,
      id: r.id,
      name: r.name,
      createdAt: Number(r.created_at),
      expiresAt: r.expires_at == null ? null : Number(r.expires_at),
      lastUse: use ?? (column == null ? null : { at: column, address: '', client: null }),
    };
  });
}

/**
 * A health `revoke` that deletes rows: the asked ids de-duplicated and capped at `max` (they come from the account's
 * own list), `remove` deletes those of them the account owns and answers their ids, and their recorded uses are
 * forgotten. Answers how many went.
 */
export async function revokeByDeleting(
  ctx: AppContext,
  kind: CredentialKind,
  ids: readonly string[],
  max: number,
  remove: (asked: string[]) => Promise<{ id: string }[]>,
): Promise<number> {
  const asked = [...new Set(ids)].slice(0, max);
  if (!asked.length) return 0;
  const gone = (await remove(asked)).map((r) => r.id);
  await ctx.credentialUses.forget(kind, gone);
  return gone.length;
}
