import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { RequestOrganization } from '../../../server/context';
import { AppError, errorResponses } from '../../../server/errors';
import { enterOrganization } from '../../../server/http/tenant';
import { TenantHeadersSchema } from '../../../schemas/common';
import {
  AppAccessAnswerSchema,
  AppAdminsAnswerSchema,
  AppInfoSchema,
  AppParamsSchema,
  AppPermissionsAnswerSchema,
  HelpLinkAnswerSchema,
  HelpLinkParamsSchema,
  LastWorkspaceAnswerSchema,
  LastWorkspaceBodySchema,
  MembersListAnswerSchema,
  MembersListQuerySchema,
  OrgAppParamsSchema,
  OrganizationsListAnswerSchema,
  OrganizationsListBodySchema,
  OrgMembersParamsSchema,
  OrgParamsSchema,
} from '../contract';
import {
  appAccess,
  appAdmins,
  appInfo,
  appPermissions,
  helpLink,
  listMyOrganizations,
  lookupMembers,
  switchOrganization,
} from './service';

const tags = ['switch-org'];
/** Org-scoped routes: a session, and the core's tenant hook (membership, IP whitelist, licence) before the handler. */
const orgScoped = { auth: 'session', orgScoped: true } as const;

/**
 * The organisation the core's tenant hook admitted (path id, else x-tenant-id, else the current one: member, IP
 * whitelist, licence, order). The services take it as it is, so none of them can run for an unchecked organisation.
 */
function orgOf(req: FastifyRequest): RequestOrganization {
  if (!req.organization) throw new AppError(403, 'NoOrganizationPermission');
  return req.organization;
}

/** The chooser's list and switch, the app entry guard's two checks, app permissions and admins, help links, members. */
export const switchOrgRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  app.post(
    '/individual/proxy/my/organizations',
    {
      config: { auth: 'session' },
      schema: {
        tags,
        summary: 'One page (≤ 50) of my organisations by name; `pages.next_token` asks for the next, null on the last',
        description:
          '`user_id` must be the signed-in user: any other id answers 404 as if it did not exist. Keyset ' +
          'pagination on (name, id): `next_token` is opaque, and one the service did not issue answers 400.',
        body: OrganizationsListBodySchema,
        response: { 200: OrganizationsListAnswerSchema, ...errorResponses },
      },
    },
    async (req) =>
      listMyOrganizations(ctx, req.session!.user.id, {
        userId: req.body.user_id,
        nextToken: req.body.pagination.next_token,
        pageSize: req.body.pagination.page_size,
      }),
  );

  app.put(
    '/uiless/api/sdk/users/lastWorkspace',
    {
      // The organisation is the body's: the hook leaves x-tenant-id (the one being left) alone, the handler enters it.
      config: { auth: 'session', orgScoped: 'manual' },
      schema: {
        tags,
        summary: 'Switch to an organisation I belong to (it becomes `organization_id` of /individual/proxy/me)',
        description:
          'Anything but an organisation of mine answers 403 NoOrganizationPermission; an organisation whose ' +
          'policies refuse this request (IP whitelist, licence) cannot be switched to either.',
        headers: TenantHeadersSchema,
        body: LastWorkspaceBodySchema,
        response: { 200: LastWorkspaceAnswerSchema, ...errorResponses },
      },
    },
    async (req) => {
      await enterOrganization(req, req.body.organization_id);
      await switchOrganization(ctx, req.session!.user.id, req.body.organization_id);
      return { organization_id: req.body.organization_id };
    },
  );

  app.get(
    '/uiless/api/organizations/:id/apps/:appId',
    {
      config: orgScoped,
      schema: {
        tags,
        summary: 'May I enter this app in this organisation? (`appId`: app key, app id or vpc id)',
        headers: TenantHeadersSchema,
        params: OrgAppParamsSchema,
        response: { 200: AppAccessAnswerSchema, ...errorResponses },
      },
    },
    async (req) => appAccess(ctx, req.session!.user.id, orgOf(req), req.params.appId),
  );

  app.get(
    '/uiless/apps/:id',
    {
      config: orgScoped,
      schema: {
        tags,
        summary: 'An app installed in the organisation of x-tenant-id (default: my current one), with its raw_url',
        description: '`id`: app key, app id or vpc id. `raw_url` is null when the edition gives the app no url.',
        headers: TenantHeadersSchema,
        params: AppParamsSchema,
        response: { 200: AppInfoSchema, ...errorResponses },
      },
    },
    async (req) => appInfo(ctx, orgOf(req), req.params.id, req.locale),
  );

  app.get(
    '/uiless/api/organizations/:id/apps/:appId/permissions',
    {
      config: orgScoped,
      schema: {
        tags,
        summary: 'The permissions I hold in this app of this organisation (admins: all of them)',
        headers: TenantHeadersSchema,
        params: OrgAppParamsSchema,
        response: { 200: AppPermissionsAnswerSchema, ...errorResponses },
      },
    },
    async (req) => ({
      permissions: await appPermissions(ctx, req.session!.user.id, orgOf(req), req.params.appId),
    }),
  );

  app.get(
    '/uiless/api/organizations/:id/appAdmins',
    {
      config: orgScoped,
      schema: {
        tags,
        summary: 'The app administrators of this organisation, by app then name',
        headers: TenantHeadersSchema,
        params: OrgParamsSchema,
        response: { 200: AppAdminsAnswerSchema, ...errorResponses },
      },
    },
    async (req) => ({ admins: await appAdmins(ctx, orgOf(req)) }),
  );

  app.get(
    '/uiless/api/helpLink/:id',
    {
      // Edition data, no organisation's: help opens whatever the policies of the organisation in x-tenant-id.
      config: { auth: 'session', orgScoped: false },
      schema: {
        tags,
        summary: 'The edition’s help link for a purpose (helpCenter, openApi, accessToken…), opened in a new window',
        headers: TenantHeadersSchema,
        params: HelpLinkParamsSchema,
        response: { 200: HelpLinkAnswerSchema, ...errorResponses },
      },
    },
    async (req) => ({ url: helpLink(ctx, req.params.id) }),
  );

  app.get(
    '/api/members/list',
    {
      config: { auth: 'session' },
      schema: {
        tags,
        summary: 'Names and avatars of users sharing an organisation with me (at most 100 ids, comma separated)',
        description: 'Unknown ids and users of other organisations are left out alike; the order is the order asked.',
        querystring: MembersListQuerySchema,
        response: { 200: MembersListAnswerSchema, ...errorResponses },
      },
    },
    async (req) => ({ members: await lookupMembers(ctx, req.session!.user.id, req.query.userIds) }),
  );

  if (ctx.edition.features.privateDeployment) {
    app.get(
      '/api/organizations/:orgId/members/list',
      {
        config: orgScoped,
        schema: {
          tags,
          summary: 'Private deployments: names and avatars of members of this organisation (at most 100 ids)',
          params: OrgMembersParamsSchema,
          querystring: MembersListQuerySchema,
          response: { 200: MembersListAnswerSchema, ...errorResponses },
        },
      },
      async (req) => ({
        members: await lookupMembers(ctx, req.session!.user.id, req.query.userIds, orgOf(req)),
      }),
    );
  }
};
