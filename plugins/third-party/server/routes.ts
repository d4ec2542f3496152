import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../../server/errors';
import { listIdentities } from './service';

const Identity = Type.Object(
  {
    id: Type.String(),
    provider: Type.Union([Type.Literal('dingtalk'), Type.Literal('feishu'), Type.Literal('api'), Type.Literal('idp')]),
    credential: Type.String(),
    open_id: Type.String(),
    name: Type.String(),
    created_at: Type.String(),
  },
  { additionalProperties: false },
);

/** The signed-in user's external accounts (third-party and identity-provider bindings). */
export const identityRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/individual/proxy/my/identities',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['third-party'],
        summary: 'Bindings of the signed-in user: DingTalk, Feishu, API synchronisation, identity providers',
        response: {
          200: Type.Object({ results: Type.Array(Identity) }, { additionalProperties: false }),
          ...errorResponses,
        },
      },
    },
    async (req) => ({ results: await listIdentities(app.ctx.db, req.session!.user.id) }),
  );
};
