import type { CredentialHealthSource } from '../../../server/plugin';
import { PACKAGES_PASSWORD_DELAY_MS } from '../limits';

/**
 * The account's artifact-repository password for the security page's credential health (issue 42), listed while it
 * has one: its id is the account's (one password per account), its name the artifact username, its creation the
 * last reset (when none is recorded, the row's last change), no expiry. Its last use counts only from that reset on:
 * a use of the password it replaced is no use of this one.
 *
 * Revoking removes the password outright (both digests and the pending switch): no client can use it any more, and
 * the credential page says there is none until its owner resets it. Unlike "this wasn't me" (which leaves an unknown
 * random password in place) it must not come back in this list as a new, never-used password. Its recorded uses stay:
 * they are the account's download history, and the next password's list ignores them by the rule above.
 */
export const packagesPasswordHealth: CredentialHealthSource = {
  async list(ctx, userId) {
    const row = await ctx.db
      .selectFrom('packages_credentials')
      .select(['username', 'password_hash', 'previous_password_hash', 'effective_at', 'updated_at'])
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!row || (!row.password_hash && !row.previous_password_hash)) return [];
    const createdAt =
      row.effective_at == null ? Number(row.updated_at) : Number(row.effective_at) - PACKAGES_PASSWORD_DELAY_MS;
    const use = (await ctx.credentialUses.lastUses('packages-password', [userId])).get(userId);
    return [
      {
        kind: 'packages-password',
        id: userId,
        name: row.username,
        createdAt,
        expiresAt: null,
        lastUse: use && use.at >= createdAt ? use : null,
      },
    ];
  },

  async revoke(ctx, userId, ids) {
    if (!ids.includes(userId)) return 0;
    const r = await ctx.db
      .updateTable('packages_credentials')
      .set({
        password_hash: null,
        previous_password_hash: null,
        effective_at: null,
        updated_at: ctx.clock.now().getTime(),
      })
      .where('user_id', '=', userId)
      .where((eb) => eb.or([eb('password_hash', 'is not', null), eb('previous_password_hash', 'is not', null)]))
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  },
};
