import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { sendError } from '../errors';
import { hasScope, TOKEN_PREFIX } from '../auth/tokens';
import type { CredentialRefusal, CredentialUseOutcome } from '../../schemas/credential-kinds';
import type { OrgDenial } from '../services/organizations';
import { tenantRefusal } from './tenant';

// The open API's token branch of the pipeline: the token is checked (ctx.tokenAuth), then the password change, the
// route's scope and the organisation's policies, and every presented token that names a token row is recorded as a
// use (ctx.credentialUses) with the outcome of all of these: only here are they all known.

/** Names of query parameters that would carry a token if a client put it in the URL. */
const TOKEN_QUERY_KEYS = /^(private_token|access_token|token|x-yunxiao-token|api_key|apikey)$/i;

function tokenInQuery(req: FastifyRequest): boolean {
  const q = req.query;
  if (!q || typeof q !== 'object') return false;
  return Object.entries(q as Record<string, unknown>).some(
    ([k, v]) => TOKEN_QUERY_KEYS.test(k) || (typeof v === 'string' && v.startsWith(TOKEN_PREFIX)),
  );
}

function presentedToken(req: FastifyRequest): string | undefined {
  const header = req.headers['x-yunxiao-token'];
  if (typeof header === 'string' && header) return header.trim();
  const auth = req.headers.authorization;
  if (typeof auth === 'string') {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    if (m) return m[1];
  }
  return undefined;
}

/** The use's reason for an organisation's refusal: the whitelist and membership by name, the rest as policy. */
const TENANT_REASON: Record<OrgDenial, CredentialRefusal> = {
  OrganizationIpRestricted: 'ip-whitelist',
  NoOrganizationPermission: 'not-member',
  OrganizationLicenceExpired: 'org-policy',
  OrganizationOrderExpired: 'org-policy',
  OrganizationSecondFactorRequired: 'org-policy',
};

/**
 * Authenticates an `auth: 'token'` request: sends the 401/403 and returns the reply when refused, else sets
 * `req.token` and `req.organization`. Never reads a cookie.
 */
export async function authenticateToken(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply | undefined> {
  if (tokenInQuery(req)) return sendError(req, reply, 401, 'TokenInQuery');
  const token = presentedToken(req);
  if (!token) return sendError(req, reply.header('www-authenticate', 'Bearer'), 401, 'TokenInvalid');
  const result = ctx.tokenAuth ? await ctx.tokenAuth.verify(token) : null;
  const use = (
    who: { tokenId: string; userId: string; name?: string },
    outcome: CredentialUseOutcome,
    reason?: CredentialRefusal,
  ) =>
    ctx.credentialUses.record({
      kind: 'token',
      credentialId: who.tokenId,
      userId: who.userId,
      address: req.ip,
      client: req.headers['user-agent'] ?? null,
      action: `${req.method} ${req.routeOptions.url ?? req.url.split('?')[0]}`,
      outcome,
      reason,
      name: who.name ?? null,
    });
  if (!result?.ok) {
    if (result?.reason === 'expired') await use(result, 'refused', 'expired');
    return sendError(req, reply.header('www-authenticate', 'Bearer'), 401, 'TokenInvalid');
  }
  const who = { tokenId: result.tokenId, userId: result.user.id, name: result.name };
  // A user who must change the password acts through nothing but the password change, tokens included.
  if (result.user.must_change_password === 1) {
    await use(who, 'refused', 'password-change');
    return sendError(req, reply, 403, 'PasswordChangeRequired');
  }
  const scope = req.routeOptions.config?.scope;
  if (scope && !hasScope(result.scopes, scope)) {
    await use(who, 'refused', 'scope');
    return sendError(req, reply, 403, 'InsufficientScope', { scope });
  }
  req.token = { tokenId: result.tokenId, scopes: result.scopes, user: result.user };
  const refusal = await tenantRefusal(ctx, req);
  if (refusal) {
    await use(who, 'refused', TENANT_REASON[refusal.denial]);
    return sendError(req, reply, 403, refusal.denial, refusal.params);
  }
  await use(who, 'ok');
  return undefined;
}
