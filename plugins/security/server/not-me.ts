import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext, RequestSession } from '../../../server/context';
import { errorResponses } from '../../../server/errors';
import { routePath } from './route-path';
import { NotMeBodySchema, NotMeResultSchema, SECURITY_PATHS, type NotMeResult } from '../contract';

/**
 * "This wasn't me": the owner says someone else used the account. Everything an intruder may hold stops working at
 * once: every other session ends, every credential the mounted slices keep is revoked (tokens deleted, the artifact
 * password replaced), and on request the account is held until an administrator lifts it (no sign-in, no recovery;
 * this session stays, so its owner reads what was done). The history and the inbox say what was done.
 */
export async function notMe(ctx: AppContext, session: RequestSession, lock: boolean): Promise<NotMeResult> {
  const userId = session.user.id;
  const sessions = await ctx.sessions.destroyOthers(userId, session.idHash);
  const credentials = await Promise.all(ctx.credentialRevokers.map((revoke) => revoke(userId)));
  if (lock) {
    await ctx.db
      .updateTable('users')
      .set({ held_at: ctx.clock.now().getTime() })
      .where('id', '=', userId)
      .where('held_at', 'is', null)
      .execute();
  }
  await ctx.events.emit({ type: 'account.not-me', locked: lock, sessions, credentials, to: { userId } });
  return { sessions_ended: sessions, credentials, locked: lock };
}

/** The route: behind a fresh proof, as every call that ends sessions. */
export const notMeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    routePath(SECURITY_PATHS.notMe),
    {
      config: { auth: 'session', reauth: true },
      schema: {
        tags: ['security'],
        summary:
          '"This wasn\'t me": ends every other session, revokes every personal access token, replaces the ' +
          'artifact-repository password, and with `lock` holds the account until an administrator unlocks it',
        body: NotMeBodySchema,
        response: { 200: NotMeResultSchema, ...errorResponses },
      },
    },
    async (req) => notMe(app.ctx, req.session!, req.body.lock),
  );
};
