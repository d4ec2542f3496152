import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../errors';
import { catalogueScope, isCatalogueGrant } from '../auth/token-scopes';
import { memberOrganizations } from '../services/accounts';

/** Scope the open API needs to read the token owner (resource `base:user` of the catalogue, read-only). */
export const SCOPE_USER_READ = catalogueScope('base:user:read');
/** Scope needed to list the token owner's organisations (resource `organization:info`, read-only). */
export const SCOPE_ORG_READ = catalogueScope('organization:info:read');

/** Open API authenticated by personal access tokens (never by the session cookie). */
export const oapiRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Every open-API route names a grant of the token scope catalogue, so what a token can do is
  // exactly what the page lets people choose; a route without one fails at start-up.
  app.addHook('onRoute', (route) => {
    if (route.config?.auth === 'token' && !isCatalogueGrant(route.config.scope))
      throw new Error(`open API route ${route.url} must name a catalogue scope`);
  });

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

  app.get(
    '/oapi/v1/platform/organizations',
    {
      config: { auth: 'token', scope: SCOPE_ORG_READ },
      schema: {
        tags: ['open-api'],
        summary: 'Organisations the owner of the presented token belongs to',
        description: `Send the token in \`x-yunxiao-token\` or \`Authorization: Bearer\`; needs scope \`${SCOPE_ORG_READ}\`.`,
        security: [{ yunxiaoToken: [] }, { bearer: [] }],
        response: {
          200: Type.Object(
            {
              organizations: Type.Array(
                Type.Object({ id: Type.String(), name: Type.String() }, { additionalProperties: false }),
              ),
            },
            { additionalProperties: false },
          ),
          ...errorResponses,
        },
      },
    },
    async (req) => ({ organizations: await memberOrganizations(app.ctx, req.token!.user.id) }),
  );
};
