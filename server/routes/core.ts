import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { SessionUser } from '../context';
import { AppError, errorResponses } from '../errors';
import { memberInstalledApps, memberOrganization } from '../services/accounts';
import { TenantHeadersSchema } from '../../schemas/common';
import {
  AppsSearchAnswerSchema,
  AppsSearchBodySchema,
  MeQuerySchema,
  MeRefSchema,
  OrganizationParamsSchema,
  OrganizationSchema,
  type Me,
} from '../../schemas/session';

/** The `me` schema (registered by the app) and its type live with the other session shapes. */
export { MeSchema, type Me } from '../../schemas/session';

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

/** Core endpoints the web shell needs on every page: who am I, which apps, which organisation. */
export const coreRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/individual/proxy/me',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['core'],
        summary: 'The signed-in user',
        querystring: MeQuerySchema,
        response: { 200: MeRefSchema, ...errorResponses },
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
        headers: TenantHeadersSchema,
        body: AppsSearchBodySchema,
        response: { 200: AppsSearchAnswerSchema, ...errorResponses },
      },
    },
    async (req) => {
      const user = req.session!.user;
      const orgId = req.headers['x-tenant-id'] || user.current_org_id;
      const installed = orgId ? await memberInstalledApps(app.ctx, user.id, orgId) : null;
      if (!installed) throw new AppError(403, 'NoOrganizationPermission');
      const wanted = req.body?.identities;
      const apps = installed.filter((a) => !wanted || wanted.includes(a.app_key));
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
        params: OrganizationParamsSchema,
        response: { 200: OrganizationSchema, ...errorResponses },
      },
    },
    async (req) => {
      const user = req.session!.user;
      const org = await memberOrganization(app.ctx, user.id, req.params.id);
      // Not a member and not existing look the same, so ids of other tenants cannot be probed.
      if (!org) throw new AppError(404, 'OrganizationNotFound');
      return org;
    },
  );
};
