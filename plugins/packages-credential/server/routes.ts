import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../../server/errors';
import { TenantHeadersSchema } from '../../../schemas/common';
import { PackagesPasswordResetSchema, PackagesResetBodySchema, PackagesUserInfoSchema } from '../contract';
import { assertPackagesInstalled, getUserInfo, resetPassword } from './service';
import { downloadAuthRoutes } from './download-routes';

/** The organisation a call is about: the x-tenant-id header the web client sends, else the current one. */
const orgOf = (headers: { 'x-tenant-id'?: string }, currentOrgId: string | null) =>
  headers['x-tenant-id'] || currentOrgId;

/** Artifact-repository credential of the signed-in user, in an organisation with the packages app. */
export const packagesCredentialRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;
  // Downloads through a front door (nginx auth_request): internal, behind INTERNAL_API_SECRET.
  await app.register(downloadAuthRoutes);
  app.get(
    '/uiless/proxy/package/api/external/users/userInfo',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['packages-credential'],
        summary: 'The artifact-repository username; the password is never returned',
        headers: TenantHeadersSchema,
        response: { 200: PackagesUserInfoSchema, ...errorResponses },
      },
    },
    async (req) => {
      const user = req.session!.user;
      await assertPackagesInstalled(ctx, user.id, orgOf(req.headers, user.current_org_id));
      return getUserInfo(ctx, user.id, user.username);
    },
  );

  app.post(
    '/uiless/proxy/package/api/external/users/user/password',
    {
      // A new password is a new credential: it needs a recent proof (re-authentication).
      config: { auth: 'session', reauth: true },
      // The web client may post no body at all.
      preValidation: async (req) => {
        req.body ??= {};
      },
      schema: {
        tags: ['packages-credential'],
        summary: 'Resets the password to a new random one, answered once; accepted 10 s later',
        headers: TenantHeadersSchema,
        body: PackagesResetBodySchema,
        response: { 200: PackagesPasswordResetSchema, ...errorResponses },
      },
    },
    async (req) => {
      const user = req.session!.user;
      await assertPackagesInstalled(ctx, user.id, orgOf(req.headers, user.current_org_id));
      return resetPassword(ctx, user.id, user.username);
    },
  );
};
