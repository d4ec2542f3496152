import type { AppContext } from '../../../server/context';

/** Removes expired third-party sign-in states and pending binds (housekeeping). */
export async function purgeOAuth(ctx: AppContext): Promise<void> {
  const now = ctx.clock.now().getTime();
  await ctx.db.deleteFrom('oauth_states').where('expires_at', '<=', now).execute();
  await ctx.db.deleteFrom('oauth_pending_binds').where('expires_at', '<=', now).execute();
}
