import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../../server/errors';
import { assertPackagesInstalled, getUserInfo, resetPassword } from './service';

const UserInfo = Type.Object(
  {
    username: Type.String(),
    has_password: Type.Boolean(),
    effective_at: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: false },
);

/** Reset answer: the new password, shown once, and when it starts to be accepted. */
export const ResetPasswordResult = Type.Object(
  {
    username: Type.String(),
    password: Type.String(),
    has_password: Type.Boolean(),
    effective_at: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: false },
);

const TenantHeaders = Type.Object({ 'x-tenant-id': Type.Optional(Type.String({ maxLength: 64 })) });

/** The organisation a call is about: the x-tenant-id header the web client sends, else the current one. */
const orgOf = (headers: { 'x-tenant-id'?: string }, currentOrgId: string | null) =>
  headers['x-tenant-id'] || currentOrgId;

/** Artifact-repository credential of the signed-in user, in an organisation with the packages app. */
export const packagesCredentialRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;
  app.get(
    '/uiless/proxy/package/api/external/users/userInfo',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['packages-credential'],
        summary: 'The artifact-repository username; the password is never returned',
        headers: TenantHeaders,
        response: { 200: UserInfo, ...errorResponses },
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
      config: { auth: 'session' },
      // The web client may post no body at all.
      preValidation: async (req) => {
        req.body ??= {};
      },
      schema: {
        tags: ['packages-credential'],
        summary: 'Resets the password to a new random one, answered once; accepted 10 s later',
        headers: TenantHeaders,
        body: Type.Object({}, { additionalProperties: false }),
        response: { 200: ResetPasswordResult, ...errorResponses },
      },
    },
    async (req) => {
      const user = req.session!.user;
      await assertPackagesInstalled(ctx, user.id, orgOf(req.headers, user.current_org_id));
      return resetPassword(ctx, user.id, user.username);
    },
  );
};
