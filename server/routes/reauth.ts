import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../errors';
import { proveWithPassword, reauthState } from '../auth/reauth';
import { REAUTH_PATHS, ReauthBodySchema, ReauthResultSchema, ReauthStateSchema } from '../../schemas/reauth';

/**
 * Proofs one client address may give per minute: the sign-in page's budget, counted under the same name, so a
 * session cannot guess faster here than a stranger there.
 */
export const PROOFS_PER_ADDRESS_MINUTE = 60;

/**
 * Re-authentication ("sudo mode"), a core service every slice's sensitive routes rely on (`config.reauth`): how this
 * account proves itself and until when its last proof holds, and the password proof. The third-party round trip
 * (`/users/reauth/oauth/:provider`) is the login slice's, which keeps the OAuth flow.
 */
export const reauthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  app.get(
    REAUTH_PATHS.my,
    {
      config: { auth: 'session' },
      schema: {
        tags: ['security'],
        summary:
          'How the signed-in account proves it is still its owner (password; directory password; a third-party ' +
          'round trip) and until when its last proof holds (a sign-in is one)',
        response: { 200: ReauthStateSchema, ...errorResponses },
      },
    },
    async (req) => reauthState(ctx, req),
  );

  app.post(
    REAUTH_PATHS.my,
    {
      config: { auth: 'session', limit: { name: 'signin', perAddress: PROOFS_PER_ADDRESS_MINUTE } },
      schema: {
        tags: ['security'],
        summary:
          'Prove with the password (a directory account: its directory password): rotates the session (a new cookie ' +
          'and CSRF token, answered) and opens the re-authentication window. A wrong password counts as a failed ' +
          'sign-in: the 5th locks the account for an hour (423 ReauthAccountLocked)',
        body: ReauthBodySchema,
        response: { 200: ReauthResultSchema, ...errorResponses },
      },
    },
    async (req, reply) => proveWithPassword(ctx, req, reply, req.body.password),
  );
};
