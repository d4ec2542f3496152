import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../errors';
import { listIdentities } from '../services/identities';
import { IdentitiesAnswerSchema } from '../../schemas/identities';

/**
 * The signed-in user's external accounts (third-party and identity-provider bindings). A core route:
 * two web sections read it (third-party, identity-provider), so it is mounted whatever the edition.
 */
export const identityRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/individual/proxy/my/identities',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['third-party'],
        summary: 'Bindings of the signed-in user: DingTalk, Feishu, API synchronisation, identity providers',
        response: { 200: IdentitiesAnswerSchema, ...errorResponses },
      },
    },
    async (req) => ({ results: await listIdentities(app.ctx, req.session!.user.id) }),
  );
};
