import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { sendError } from '../errors';
import { resolveLocale } from '../i18n/index';
import { SESSION_COOKIE, type SessionStore } from '../auth/sessions';
import { safeEqual } from '../auth/random';
import { hasScope, TOKEN_PREFIX } from '../auth/tokens';
import { enforceTenant, installTenantContext } from './tenant';

/** Path prefixes that are API (JSON) rather than pages or files; every route under them must declare `config.auth`. */
export const API_PREFIXES = ['/users/ajax/', '/individual/', '/uiless/', '/oapi/', '/objects/', '/api/ajax/'];

/** True for a path that answers JSON, never the web app. */
export function isApiPath(url: string): boolean {
  return API_PREFIXES.some((p) => url.startsWith(p));
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const DEFAULT_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";
const DOCS_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'";

/** The page CSP: scripts and styles only from this origin or carrying this response's nonce. */
export function pageCsp(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

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

/**
 * Installs what every request goes through: request id header, locale, session or token
 * authentication, X-Requested-With + CSRF checks on state changes, the organisation context and its policies
 * (./tenant), and security headers.
 */
export function installPipeline(app: FastifyInstance, ctx: AppContext, sessions: SessionStore): void {
  const fallbackLocale = ctx.edition.locale.default;
  app.decorateRequest('session', null);
  app.decorateRequest('token', null);
  app.decorateRequest('locale', fallbackLocale);
  installTenantContext(app);

  app.addHook('onRoute', (route) => {
    const urls = [route.url];
    if (urls.some(isApiPath) && !route.config?.auth) {
      throw new Error(
        `route ${String(route.method)} ${route.url} must declare config.auth ('public' | 'session' | 'token')`,
      );
    }
  });

  app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    reply.header('x-request-id', req.id);
    req.locale = resolveLocale(req.cookies ?? {}, req.headers['accept-language'], fallbackLocale);
    const config = req.routeOptions.config ?? {};
    const auth = config.auth;
    if (!auth) return;

    if (auth === 'token') {
      if (tokenInQuery(req)) return sendError(req, reply, 401, 'TokenInQuery');
      const token = presentedToken(req);
      if (!token) return sendError(req, reply.header('www-authenticate', 'Bearer'), 401, 'TokenInvalid');
      const result = ctx.tokenAuth ? await ctx.tokenAuth.verify(token) : null;
      if (!result?.ok) return sendError(req, reply.header('www-authenticate', 'Bearer'), 401, 'TokenInvalid');
      if (config.scope && !hasScope(result.scopes, config.scope)) {
        return sendError(req, reply, 403, 'InsufficientScope', { scope: config.scope });
      }
      req.token = { tokenId: result.tokenId, scopes: result.scopes, user: result.user };
      return enforceTenant(ctx, req, reply);
    }

    const cookie = req.cookies?.[SESSION_COOKIE];
    if (cookie) {
      req.session = await sessions.load(cookie);
      if (!req.session) reply.clearCookie(SESSION_COOKIE, { path: '/' });
    }

    if (STATE_CHANGING.has(req.method)) {
      if (req.headers['x-requested-with'] !== 'XMLHttpRequest') return sendError(req, reply, 403, 'XhrRequired');
      if (config.csrf !== 'xhr') {
        if (!req.session)
          return sendError(
            req,
            reply,
            auth === 'session' ? 401 : 403,
            auth === 'session' ? 'Unauthorized' : 'CsrfRejected',
          );
        const sent = req.headers['x-csrf-token'];
        if (typeof sent !== 'string' || !safeEqual(sent, req.session.csrfToken))
          return sendError(req, reply, 403, 'CsrfRejected');
      }
    }
    if (auth === 'session' && !req.session) return sendError(req, reply, 401, 'Unauthorized');
    return enforceTenant(ctx, req, reply);
  });

  app.addHook('onSend', async (req, reply, payload) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    reply.header('x-frame-options', 'DENY');
    if (!reply.hasHeader('content-security-policy')) {
      reply.header('content-security-policy', req.url.startsWith('/api/docs') ? DOCS_CSP : DEFAULT_CSP);
    }
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
}
