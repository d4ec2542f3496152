import type { CredentialHealthSource } from '../../../server/plugin';
import { healthEntries, revokeByDeleting } from '../../../server/auth/credential-health';
import { MAX_TOKENS_PER_USER } from '../limits';

/**
 * The account's tokens for the security page's credential health (issue 42): each with its creation, expiry and last
 * use (a regenerated token's old row while its grace lasts, its expiry the end of the grace); revoking deletes them (as
 * the list's delete does) and forgets their recorded uses.
 */
export const tokenHealth: CredentialHealthSource = {
  async list(ctx, userId) {
    const rows = await ctx.db
      .selectFrom('personal_access_tokens')
      .select(['id', 'name', 'created_at', 'expires_at', 'last_used_at'])
      .where('user_id', '=', userId)
      // As the token list: a regenerated token's old row only while its secret still works (its grace).
      .where((eb) => eb.or([eb('replaced_by', 'is', null), eb('expires_at', '>', ctx.clock.now().getTime())]))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(MAX_TOKENS_PER_USER)
      .execute();
    return healthEntries(ctx, 'token', rows);
  },

  revoke: (ctx, userId, ids) =>
    // The owner check is the user id: another account's id deletes nothing.
    revokeByDeleting(ctx, 'token', ids, MAX_TOKENS_PER_USER, (asked) =>
      ctx.db
        .deleteFrom('personal_access_tokens')
        .where('user_id', '=', userId)
        .where('id', 'in', asked)
        .returning('id')
        .execute(),
    ),
};
