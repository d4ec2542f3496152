import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext, SessionUser } from '../context';
import type { ServerLocale } from '../i18n/index';
import { AppError, errorResponses } from '../errors';
import { admittedOrgApps } from '../services/organizations';
import { TenantHeadersSchema } from '../../schemas/common';
import {
  AppsSearchAnswerSchema,
  AppsSearchBodySchema,
  MeQuerySchema,
  MeRefSchema,
  OrganizationParamsSchema,
  OrganizationSchema,
  type AppsSearchAnswer,
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
    colorScheme: u.color_scheme,
  };
}

/** The apps installed in an admitted organisation, named in `locale` (optionally only the `wanted` keys). */
export async function installedApps(
  ctx: AppContext,
  orgId: string,
  locale: ServerLocale,
  wanted?: string[],
): Promise<AppsSearchAnswer['results']> {
  const installed = await admittedOrgApps(ctx, orgId);
  return installed
    .filter((a) => !wanted || wanted.includes(a.app_key))
    .map((a) => {
      const desc = ctx.edition.appSwitcher.find((d) => d.key === a.app_key);
      return { identity: a.app_key, id: a.app_id, name: desc ? desc.name[locale] : a.app_key };
    });
}

/** Core endpoints the web shell needs on every page: who am I, which apps, which organisation. */
export const coreRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/individual/proxy/me',
    {
      // The shell reads who is signed in (and that the password must be changed) before sending them to change it.
      config: { auth: 'session', beforePasswordChange: true },
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
      // The organisation: x-tenant-id, else the current one, checked by the tenant hook (member, IP, licence).
      config: { auth: 'session', orgScoped: true },
      // Clients may post no body at all; treat that as an empty filter.
      preValidation: async (req) => {
        req.body ??= {};
      },
      schema: {
        tags: ['core'],
        summary:
          'Apps installed in the organisation named by x-tenant-id (default: the current one); none without an organisation',
        headers: TenantHeadersSchema,
        body: AppsSearchBodySchema,
        response: { 200: AppsSearchAnswerSchema, ...errorResponses },
      },
    },
    async (req) => {
      // No organisation at all is a state, not an error: the shell shows what needs none.
      if (!req.organization) return { results: [] };
      return { results: await installedApps(app.ctx, req.organization.id, req.locale, req.body?.identities) };
    },
  );

  app.get(
    '/uiless/api/organizations/:id',
    {
      // A foreign or unknown id is refused by the tenant hook alike (403), so other tenants' ids cannot be probed.
      config: { auth: 'session', orgScoped: true },
      schema: {
        tags: ['core'],
        summary: 'One organisation the user belongs to',
        params: OrganizationParamsSchema,
        response: { 200: OrganizationSchema, ...errorResponses },
      },
    },
    async (req) => {
      // The tenant hook admitted the named organisation; a user in none that named none has nothing to read.
      if (!req.organization) throw new AppError(404, 'OrganizationNotFound');
      const { id, name, logo, secondFactorDeadline } = req.organization;
      return { id, name, logo, ...(secondFactorDeadline ? { second_factor_deadline: secondFactorDeadline } : {}) };
    },
  );
};
