import crypto from 'node:crypto';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import type { AppContext } from '../context';
import { localizedErrorBody, sendError } from '../errors';
import { resolveLocale, type MessageCode, type ServerLocale } from '../i18n/index';
import { sessionCookieName, type SessionStore } from '../auth/sessions';
import { safeEqual } from '../auth/random';
import { isFresh } from '../auth/reauth';
import { enforceTenant, installTenantContext } from './tenant';
import { authenticateToken } from './token-auth';
import { noteEventsDuring, type EventAudience } from '../events';
import { ACCOUNT_EVENTS_HEADER } from '../../schemas/account-events';

/** Path prefixes that are API (JSON) rather than pages or files; every route under them must declare `config.auth`. */
export const API_PREFIXES = [
  '/users/ajax/',
  '/individual/',
  '/uiless/',
  '/oapi/',
  '/objects/',
  '/api/ajax/',
  '/internal/',
];

/** The header the suite's front doors present INTERNAL_API_SECRET in (never a cookie, never Authorization). */
export const INTERNAL_SECRET_HEADER = 'x-internal-secret';

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
    // antd's helpers add <style> elements without a nonce (a modal's scroll lock, a table's scrollbar measure) and
    // React and antd put style attributes on elements: styles may be inline, scripts only with the nonce.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** HSTS sent by a service whose PUBLIC_URL is https (never on http: a browser would then refuse the http site). */
export const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * The headers every answer carries, errors included: no sniffing, no framing, a strict referrer policy, the
 * default CSP (the docs' own under /api/docs; pages set theirs), no-store unless the route set caching, and
 * HSTS when the service is served over https.
 */
export function securityHeaders(url: string, https: boolean): Record<string, string> {
  return {
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'x-frame-options': 'DENY',
    'content-security-policy': url.startsWith('/api/docs') ? DOCS_CSP : DEFAULT_CSP,
    'cache-control': 'no-store',
    ...(https ? { 'strict-transport-security': HSTS } : {}),
  };
}

/** Sets the security headers on an answer, keeping a CSP or cache policy the route chose. */
function applySecurityHeaders(req: FastifyRequest, reply: FastifyReply, https: boolean): void {
  for (const [name, value] of Object.entries(securityHeaders(req.url, https))) {
    if ((name === 'content-security-policy' || name === 'cache-control') && reply.hasHeader(name)) continue;
    reply.header(name, value);
  }
}

const FRAMEWORK_ERRORS: Record<string, [number, MessageCode]> = {
  FST_ERR_BAD_URL: [400, 'InvalidUrl'],
  FST_ERR_MAX_PARAM_LENGTH: [414, 'UriTooLong'],
};

/**
 * Puts the session of the request's cookie on the request. The pipeline does it for every route that declares `auth`;
 * the not-found page calls it itself (no route's config reached it). A cookie whose session is gone is left alone,
 * not cleared: it may be one a proof has just replaced, sent by a call that was on its way (the bell's refresh, another
 * tab), and clearing it would clear the browser's new one too, signing the member out.
 */
export async function loadSession(req: FastifyRequest, sessions: SessionStore, https: boolean): Promise<void> {
  const name = sessionCookieName(https);
  const cookie = req.cookies?.[name];
  if (!cookie) return;
  req.session = await sessions.load(cookie, req.ip);
}

/**
 * Fastify's `frameworkErrors`: errors raised before routing (a bad `%` in the path, an over-long parameter)
 * answer in the error shape with the security headers. No hook runs for these requests, so the locale comes
 * from the headers here and the headers are set here.
 */
export function frameworkErrorHandler(
  fallbackLocale: ServerLocale,
  https: boolean,
): NonNullable<FastifyServerOptions['frameworkErrors']> {
  return (err: FastifyError, req, reply) => {
    const [status, code] = FRAMEWORK_ERRORS[err.code] ?? [500, 'SystemError' as const];
    let cookies: Record<string, string | undefined> = {};
    try {
      cookies = fastifyCookie.parse(req.headers.cookie ?? '');
    } catch {
      // the default language then
    }
    req.locale = resolveLocale(cookies, req.headers['accept-language'], fallbackLocale);
    reply.header('x-request-id', req.id);
    applySecurityHeaders(req, reply, https);
    if (status >= 500) req.log.error({ err }, 'framework error');
    void sendError(req, reply, status, code);
  };
}

/**
 * Fastify's `clientErrorHandler`: what Node's HTTP parser refuses (malformed or oversized headers, a request
 * not received within the request or header timeout) answers in the error shape with the security headers,
 * in the edition's language, then the connection is closed. Nothing is written once an answer has started.
 */
export function clientErrorHandler(
  fallbackLocale: ServerLocale,
  https: boolean,
): (err: NodeJS.ErrnoException, socket: Socket) => void {
  return (err, socket) => {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (socket.writable && !inFlight?.headersSent) {
      const [status, code]: [number, MessageCode] =
        err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'RequestTimeout']
          : err.code === 'HPE_HEADER_OVERFLOW'
            ? [431, 'HeadersTooLarge']
            : [400, 'BadRequest'];
      const requestId = crypto.randomUUID();
      const body = JSON.stringify(localizedErrorBody(fallbackLocale, requestId, status, code));
      const headers = {
        'content-type': 'application/json; charset=utf-8',
        'content-length': String(Buffer.byteLength(body)),
        connection: 'close',
        'x-request-id': requestId,
        ...securityHeaders('/', https),
      };
      const head = Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('');
      socket.write(`HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\n${head}\r\n${body}`);
    }
    socket.destroy();
  };
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

/** The audiences of the account events each request emitted, for its answer's `x-account-events`. */
const eventsOf = new WeakMap<FastifyRequest, EventAudience[]>();

/**
 * How many of a request's account events its signed-in caller may hear of: those to them, and those to an
 * organisation (they act in it). Nothing without a session: a sign-in attempt is not told what it caused.
 */
function eventsToCaller(req: FastifyRequest): number {
  const userId = req.session?.user.id;
  const noted = eventsOf.get(req);
  if (!userId || !noted) return 0;
  return noted.filter((to) => ('userId' in to ? to.userId === userId : true)).length;
}

/**
 * Installs what every request goes through: request id header, locale, session or token
 * authentication, X-Requested-With + CSRF checks on state changes, the forced password change (403
 * PasswordChangeRequired on everything but the routes marked `beforePasswordChange`, and on every token of that
 * user), re-authentication (403 ReauthRequired on routes marked `reauth` without a recent proof), the
 * organisation context and its policies (./tenant), and security headers.
 */
export function installPipeline(app: FastifyInstance, ctx: AppContext, sessions: SessionStore): void {
  const fallbackLocale = ctx.edition.locale.default;
  const https = ctx.secureCookies;
  app.decorateRequest('session', null);
  app.decorateRequest('token', null);
  app.decorateRequest('locale', fallbackLocale);
  installTenantContext(app);

  // Notes the account events the request emits, and gives them its client (first, so the rest of its handling runs
  // inside): the history says where a sign-in or a change came from.
  app.addHook('onRequest', (req, _reply, done) => {
    const noted: EventAudience[] = [];
    eventsOf.set(req, noted);
    req.locale = resolveLocale(req.cookies ?? {}, req.headers['accept-language'], fallbackLocale);
    const origin = { address: req.ip, userAgent: req.headers['user-agent'] ?? null, locale: req.locale };
    noteEventsDuring({ noted, origin }, done);
  });

  app.addHook('onRoute', (route) => {
    const urls = [route.url];
    if (urls.some(isApiPath) && !route.config?.auth) {
      throw new Error(
        `route ${String(route.method)} ${route.url} must declare config.auth ('public' | 'session' | 'token' | 'internal')`,
      );
    }
    // The internal API is exactly the routes under /internal/ (besides the catch-all that answers unknown ones 404).
    const internal = route.config?.auth === 'internal';
    if (internal !== route.url.startsWith('/internal/') && route.url !== '/internal/*')
      throw new Error(
        `route ${String(route.method)} ${route.url}: the internal API is exactly the routes under /internal/`,
      );
  });

  app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    reply.header('x-request-id', req.id);
    const config = req.routeOptions.config ?? {};
    const auth = config.auth;
    if (!auth) return;

    // The internal API: a shared secret from the configuration, nothing else (no cookie, no token, no tenant).
    if (auth === 'internal') {
      const secret = ctx.config.internalApiSecret;
      if (!secret) return sendError(req, reply, 404, 'NotFound');
      const sent = req.headers[INTERNAL_SECRET_HEADER];
      if (typeof sent !== 'string' || !safeEqual(sent, secret))
        return sendError(req, reply, 401, 'InternalSecretInvalid');
      return;
    }

    // The open API: the token, its scope and the organisation's policies; every use is recorded (./token-auth).
    if (auth === 'token') return authenticateToken(ctx, req, reply);

    await loadSession(req, sessions, https);

    if (STATE_CHANGING.has(req.method) && config.csrf !== 'form') {
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
    // Until the forced change is done, a session reaches the change, `me`, the pages and sign-out (public routes).
    if (auth === 'session' && req.session!.user.must_change_password === 1 && !config.beforePasswordChange)
      return sendError(req, reply, 403, 'PasswordChangeRequired');
    // A sensitive change needs a recent proof (a sign-in, the password again): refused before anything is read.
    if (auth === 'session' && config.reauth && !isFresh(ctx, req.session!))
      return sendError(req, reply, 403, 'ReauthRequired');
    return enforceTenant(ctx, req, reply);
  });

  app.addHook('onSend', async (req, reply, payload) => {
    if (!reply.hasHeader('x-request-id')) reply.header('x-request-id', req.id);
    applySecurityHeaders(req, reply, https);
    const events = eventsToCaller(req);
    if (events) reply.header(ACCOUNT_EVENTS_HEADER, String(events));
    return payload;
  });
}
