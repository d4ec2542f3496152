import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext, OrgScope, RequestOrganization, RouteAuth } from '../context';
import { AppError, sendError } from '../errors';
import { memberOrgAccess, policyDenial, type OrgAccess, type OrgDenial } from '../services/organizations';
import { isApiPath } from './pipeline';

/**
 * Organisation context and policies. A request works in an organisation when its route declares
 * `config.orgScoped: true` (the organisation is the `/organizations/:id` path param, else `x-tenant-id`, else the
 * user's current one) or when it is a `/uiless/` call carrying `x-tenant-id` (the web client sends it on every
 * one). Every organisation the request names must admit the caller, in this order: membership
 * (`NoOrganizationPermission`, before anything about the organisation is read), the IP whitelist against
 * `req.ip` (`OrganizationIpRestricted`), the licence (`OrganizationLicenceExpired`), the standard-edition order
 * (`OrganizationOrderExpired`), the second factor once its grace has passed (`OrganizationSecondFactorRequired`,
 * naming the organisation: the caller is a member), all 403. Personal calls name no organisation and are never
 * refused here, so a member refused for want of a second factor can still reach the security page to add one.
 */

/** `/uiless/` paths that proxy personal APIs (code-hosting SSH keys, package credentials): no organisation context. */
const PERSONAL_PREFIX = '/uiless/proxy/';
/** Longer than any organisation id; refused without a query. */
const ORG_ID_MAX = 64;

/** The route param holding the organisation: `:x` in `/organizations/:x`, else `:organizationId` or `:orgId`. */
export function orgParamName(routeUrl: string): string | undefined {
  const m = /\/organizations\/:([A-Za-z_][A-Za-z0-9_]*)/.exec(routeUrl);
  if (m) return m[1];
  return /\/:organizationId(\/|$)/.test(routeUrl)
    ? 'organizationId'
    : /\/:orgId(\/|$)/.test(routeUrl)
      ? 'orgId'
      : undefined;
}

function tenantHeader(req: FastifyRequest): string | undefined {
  const h = req.headers['x-tenant-id'];
  const v = (Array.isArray(h) ? h[0] : h)?.trim();
  return v || undefined;
}

function toRequestOrganization(a: OrgAccess): RequestOrganization {
  const org: RequestOrganization = { id: a.id, name: a.name, logo: a.logo, role: a.role };
  // Only while the grace lasts (admitted): the page warns of the day the organisation starts refusing.
  if (a.secondFactorDeadline !== null) org.secondFactorDeadline = a.secondFactorDeadline;
  return org;
}

/** A refusal: its code, and the organisation's name where the text names it (a member's own organisation). */
export interface TenantRefusal {
  denial: OrgDenial;
  params?: { org: string };
}

/** Checks one organisation for the caller; the refusal code, or the organisation as handlers see it. */
async function admit(
  ctx: AppContext,
  req: FastifyRequest,
  userId: string,
  orgId: string,
): Promise<TenantRefusal | { org: RequestOrganization }> {
  const access = orgId.length <= ORG_ID_MAX ? await memberOrgAccess(ctx.db, userId, orgId) : undefined;
  const denial = access ? policyDenial(access, req.ip, ctx.clock.now().getTime()) : 'NoOrganizationPermission';
  if (denial) {
    req.log.info({ orgId, clientAddress: req.ip, code: denial }, 'organisation context refused');
    return denial === 'OrganizationSecondFactorRequired' ? { denial, params: { org: access!.name } } : { denial };
  }
  return { org: toRequestOrganization(access!) };
}

/** An API route as the tenant hook sees it: what the isolation tests sweep, so no organisation route is missed. */
export interface TenantRoute {
  method: string;
  url: string;
  auth: RouteAuth | undefined;
  orgScoped: OrgScope | undefined;
  /** True when `x-tenant-id` on this route is checked (orgScoped, or a non-personal `/uiless/` route). */
  tenantHeaderChecked: boolean;
}

const routesByApp = new WeakMap<FastifyInstance, TenantRoute[]>();

/** The API routes of an app built with the pipeline, with their organisation scope (tests sweep them). */
export function tenantRoutes(app: FastifyInstance): readonly TenantRoute[] {
  return routesByApp.get(app) ?? [];
}

/** Makes `req.organization` available and refuses, at registration, an organisation-scoped route anyone may call. */
export function installTenantContext(app: FastifyInstance): void {
  const routes: TenantRoute[] = [];
  routesByApp.set(app, routes);
  app.decorateRequest('organization', null);
  app.addHook('onRoute', (route) => {
    const scoped = route.config?.orgScoped;
    if (scoped && route.config?.auth !== 'session' && route.config?.auth !== 'token') {
      throw new Error(
        `route ${String(route.method)} ${route.url} is orgScoped, so it needs auth 'session' or 'token' (a member)`,
      );
    }
    if (!isApiPath(route.url) && !scoped) return;
    const tenantHeaderChecked =
      scoped === true ||
      (scoped === undefined && route.url.startsWith('/uiless/') && !route.url.startsWith(PERSONAL_PREFIX));
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD')
        routes.push({ method, url: route.url, auth: route.config?.auth, orgScoped: scoped, tenantHeaderChecked });
    }
  });
}

/**
 * The tenant check of one request, run by the pipeline after authentication; sends the 403 and returns the reply
 * when an organisation refuses, else sets `req.organization` (null when the request names none).
 */
export async function enforceTenant(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply | undefined> {
  const r = await tenantRefusal(ctx, req);
  return r ? sendError(req, reply, 403, r.denial, r.params) : undefined;
}

/**
 * The tenant check without the answer: the refusal (for the caller to send, e.g. after recording a token's refused
 * use), or undefined with `req.organization` set.
 */
export async function tenantRefusal(ctx: AppContext, req: FastifyRequest): Promise<TenantRefusal | undefined> {
  const scoped = req.routeOptions.config?.orgScoped;
  const user = req.session?.user ?? req.token?.user;
  if (!user || scoped === false || scoped === 'manual') return undefined;
  const header = tenantHeader(req);
  // The route's pattern, not the raw URL: what the request reached decides, whatever its spelling.
  const route = req.routeOptions.url ?? '';
  const named: string[] = [];
  if (scoped === true) {
    const param = orgParamName(route);
    const fromPath = param ? (req.params as Record<string, string | undefined>)[param] : undefined;
    if (fromPath) named.push(fromPath);
    if (header && header !== fromPath) named.push(header);
    if (!named.length && user.current_org_id) named.push(user.current_org_id);
  } else if (header && route.startsWith('/uiless/') && !route.startsWith(PERSONAL_PREFIX)) {
    named.push(header);
  }
  let first: RequestOrganization | null = null;
  for (const orgId of named) {
    const r = await admit(ctx, req, user.id, orgId);
    if ('denial' in r) return r;
    first ??= r.org;
  }
  req.organization = first;
  return undefined;
}

/**
 * For `orgScoped: 'manual'` routes: enters the organisation the handler read from the request (e.g. the body of
 * the organisation switch) with the same checks, throwing the 403 AppError; sets and returns `req.organization`.
 */
export async function enterOrganization(req: FastifyRequest, orgId: string): Promise<RequestOrganization> {
  const user = req.session?.user ?? req.token?.user;
  if (!user) throw new AppError(401, 'Unauthorized');
  const r = await admit(req.server.ctx, req, user.id, orgId);
  if ('denial' in r) throw new AppError(403, r.denial, r.params);
  req.organization = r.org;
  return r.org;
}
