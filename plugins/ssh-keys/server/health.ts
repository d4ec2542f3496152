import type { CredentialHealthSource } from '../../../server/plugin';
import { healthEntries, revokeByDeleting } from '../../../server/auth/credential-health';

/** The most keys one account's health list shows (no account keeps this many; the list stays bounded). */
const HEALTH_KEYS_MAX = 500;

/**
 * The account's SSH keys for the security page's credential health (issue 42): each with its creation, expiry and
 * last use (git over SSH); revoking deletes them (as the page's delete does) and forgets their recorded uses.
 */
export const sshKeyHealth: CredentialHealthSource = {
  async list(ctx, userId) {
    const rows = await ctx.db
      .selectFrom('ssh_keys')
      .select(['id', 'name', 'created_at', 'expires_at', 'last_used_at'])
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(HEALTH_KEYS_MAX)
      .execute();
    return healthEntries(ctx, 'ssh-key', rows);
  },

  revoke: (ctx, userId, ids) =>
    // The owner check is the user id: another account's key id deletes nothing.
    revokeByDeleting(ctx, 'ssh-key', ids, HEALTH_KEYS_MAX, (asked) =>
      ctx.db.deleteFrom('ssh_keys').where('user_id', '=', userId).where('id', 'in', asked).returning('id').execute(),
    ),
};
