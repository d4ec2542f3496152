import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../errors';

/** Scope the open API needs to read the token owner. */
export const SCOPE_USER_READ = 'base:user:read';

/** Open API authenticated by personal access tokens (never by the session cookie). */
export const oapiRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/oapi/v1/platform/user',
    {
      config: { auth: 'token', scope: SCOPE_USER_READ },
      schema: {
        tags: ['open-api'],
        summary: 'The owner of the presented personal access token',
        description: `Send the token in \`x-yunxiao-token\` or \`Authorization: Bearer\`; needs scope \`${SCOPE_USER_READ}\`.`,
        security: [{ yunxiaoToken: [] }, { bearer: [] }],
        response: {
          200: Type.Object(
            {
              id: Type.String(),
              username: Type.String(),
              name: Type.String(),
              email: Type.Union([Type.String(), Type.Null()]),
              createdAt: Type.String(),
              lastOrganization: Type.Union([Type.String(), Type.Null()]),
            },
            { additionalProperties: false },
          ),
          ...errorResponses,
        },
      },
    },
    async (req) => {
      const u = req.token!.user;
      return {
        id: u.id,
        username: u.username,
        name: u.name,
        email: u.email,
        createdAt: new Date(u.created_at).toISOString(),
        lastOrganization: u.current_org_id,
      };
    },
  );
};
