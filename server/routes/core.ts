import { Type, type FastifyPluginAsyncTypebox, type Static } from '@fastify/type-provider-typebox';
import type { SessionUser } from '../context';
import { AppError, errorResponses } from '../errors';
import { installedApps, isMember } from '../services/accounts';

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

/** The current user as the web shell reads it (`GET /individual/proxy/me`). */
export const MeSchema = Type.Object(
  {
    id: Type.String(),
    username: Type.String(),
    name: Type.String(),
    email: Nullable(Type.String()),
    email_verified: Type.Boolean(),
    avatar: Nullable(Type.String()),
    language: Nullable(Type.String()),
    must_change_password: Type.Boolean(),
    organization_id: Nullable(Type.String()),
  },
  { $id: 'Me', additionalProperties: false },
);

/** Static type of the current-user answer. */
export type Me = Static<typeof MeSchema>;

/** Shapes a user row into the `me` answer (flags as booleans). */
export function toMe(u: SessionUser): Me {
  return {
    id: u.id,
    username: u.username,
    name: u.name,
    email: u.email,
    email_verified: u.email_verified === 1,
    avatar: u.avatar,
    language: u.language,
    must_change_password: u.must_change_password === 1,
    organization_id: u.current_org_id,
  };
}

const AppItem = Type.Object(
  { identity: Type.String(), id: Type.String(), name: Type.String() },
  { additionalProperties: false },
);
const Organization = Type.Object(
  { id: Type.String(), name: Type.String(), logo: Type.Union([Type.String(), Type.Null()]) },
  { additionalProperties: false },
);

/** Core endpoints the web shell needs on every page: who am I, which apps, which organisation. */
export const coreRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/individual/proxy/me',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['core'],
        summary: 'The signed-in user',
        querystring: Type.Object({ with_email_info: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
        response: { 200: Type.Ref('Me'), ...errorResponses },
      },
    },
    async (req) => toMe(req.session!.user),
  );

  app.post(
    '/uiless/api/apps::search',
    {
      config: { auth: 'session' },
      // Clients may post no body at all; treat that as an empty filter.
      preValidation: async (req) => {
        req.body ??= {};
      },
      schema: {
        tags: ['core'],
        summary: 'Apps installed in the organisation named by x-tenant-id (default: the current one)',
        headers: Type.Object({ 'x-tenant-id': Type.Optional(Type.String({ maxLength: 64 })) }),
        body: Type.Object(
          {
            identities: Type.Optional(Type.Array(Type.String({ maxLength: 40 }), { maxItems: 50 })),
            pagination: Type.Optional(
              Type.Object(
                {
                  next_token: Type.Optional(Type.String()),
                  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
                },
                { additionalProperties: false },
              ),
            ),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({ results: Type.Array(AppItem) }, { additionalProperties: false }),
          ...errorResponses,
        },
      },
    },
    async (req) => {
      const user = req.session!.user;
      const orgId = req.headers['x-tenant-id'] || user.current_org_id;
      if (!orgId || !(await isMember(app.ctx.db, user.id, orgId))) throw new AppError(403, 'NoOrganizationPermission');
      const wanted = req.body?.identities;
      const apps = (await installedApps(app.ctx.db, orgId)).filter((a) => !wanted || wanted.includes(a.app_key));
      return {
        results: apps.map((a) => {
          const desc = app.ctx.edition.appSwitcher.find((d) => d.key === a.app_key);
          return { identity: a.app_key, id: a.app_id, name: desc ? desc.name[req.locale] : a.app_key };
        }),
      };
    },
  );

  app.get(
    '/uiless/api/organizations/:id',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['core'],
        summary: 'One organisation the user belongs to',
        params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
        response: { 200: Organization, ...errorResponses },
      },
    },
    async (req) => {
      const user = req.session!.user;
      const org = await app.ctx.db
        .selectFrom('organizations')
        .innerJoin('memberships', 'memberships.org_id', 'organizations.id')
        .select(['organizations.id', 'organizations.name', 'organizations.logo'])
        .where('organizations.id', '=', req.params.id)
        .where('memberships.user_id', '=', user.id)
        .executeTakeFirst();
      // Not a member and not existing look the same, so ids of other tenants cannot be probed.
      if (!org) throw new AppError(404, 'OrganizationNotFound');
      return org;
    },
  );
};
