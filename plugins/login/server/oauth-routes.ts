import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../server/context';
import { AppError, errorResponses } from '../../../server/errors';
import { recordProof } from '../../../server/auth/reauth';
import { REAUTH_PATHS } from '../../../schemas/reauth';
import { SuccessSchema } from '../../../schemas/common';
import { isOAuthProvider, loginErrorPath, oauthCallbackPath, type OAuthProvider } from '../../../schemas/sign-in';
import { NEXT_URL_MAX, PendingBindSchema, type PendingBind } from '../contract';
import { noteSignIn } from './devices';
import { safeNextUrl } from './service';
import { readMarks } from './device-mark';
import {
  OAUTH_BIND_COOKIE,
  OAUTH_STATE_COOKIE,
  OAUTH_STATE_TTL_MS,
  OAuthFlowError,
  PENDING_BIND_TTL_MS,
  bindPendingAccount,
  createPendingBind,
  findPendingBind,
  finishOAuth,
  forgetPendingBind,
  startOAuth,
  takePendingBind,
} from './oauth';
import { lockFor } from './device-mark';
import { openSession } from './session-start';
import { startStep } from './second-step';

/** Third-party sign-ins one client address may start, and callbacks it may bring back, per minute. */
export const OAUTH_STARTS_PER_ADDRESS_MINUTE = 60;
/** Pending-bind reads and forgets one client address may make per minute. */
export const PENDING_BIND_CALLS_PER_ADDRESS_MINUTE = 60;

/** Where a third-party sign-in lands when it has no (valid) `next`. */
export const OAUTH_DEFAULT_LANDING = '/users/settings';

const PENDING_BIND_PATH = '/users/ajax/login/pending-bind';

const ProviderParamsSchema = Type.Object({ provider: Type.String({ minLength: 1, maxLength: 32 }) });
// Open objects: providers add their own parameters to the callback (`iss`, `session_state`, `scope`…).
const StartQuerySchema = Type.Object({ next: Type.Optional(Type.String({ maxLength: NEXT_URL_MAX })) });
const CallbackQuerySchema = Type.Object({
  code: Type.Optional(Type.String({ maxLength: 2048 })),
  state: Type.Optional(Type.String({ maxLength: 512 })),
  error: Type.Optional(Type.String({ maxLength: 256 })),
  error_description: Type.Optional(Type.String({ maxLength: 2048 })),
});

/** Where a re-authentication round trip returns: `next` when it is a local path of this service, else the settings. */
function reauthLanding(ctx: AppContext, next: string | null | undefined): string {
  const safe = next ? safeNextUrl(next, ctx) : null;
  return safe && safe.startsWith('/') && !safe.startsWith('//') ? safe : OAUTH_DEFAULT_LANDING;
}

/** Options of the pending-bind cookie (whole site: the login page reads it through the API). */
function bindCookieOptions(ctx: AppContext) {
  return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: ctx.secureCookies };
}

/** The redirect URI registered at the provider: PUBLIC_URL's, else the request's origin, + the callback path. */
function redirectUriOf(ctx: AppContext, req: FastifyRequest, provider: OAuthProvider): string {
  return `${ctx.config.publicUrl ?? `${req.protocol}://${req.host}`}${oauthCallbackPath(provider)}`;
}

/**
 * For the password sign-in with `bind_pending: true`, after the password was accepted (call it before the session is
 * created, so a refused bind leaves no session): takes this browser's pending-bind ticket single-use, binds its
 * third-party account to `userId` (replacing the user's own earlier account of that provider) and clears the cookie.
 * Throws 404 PendingBindNotFound without a valid ticket, 409 ThirdPartyAccountBoundToOther when the account is bound
 * to someone else (the ticket is spent either way). Emits no event (there is no `identity.bound`).
 */
export async function consumePendingBind(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  userId: string,
): Promise<PendingBind> {
  const ticket = req.cookies?.[OAUTH_BIND_COOKIE];
  if (ticket !== undefined) reply.clearCookie(OAUTH_BIND_COOKIE, bindCookieOptions(ctx));
  const result = await bindPendingAccount(ctx, ticket, userId);
  if (result.kind === 'none') throw new AppError(404, 'PendingBindNotFound');
  if (result.kind === 'boundToOther') throw new AppError(409, 'ThirdPartyAccountBoundToOther');
  return result.bind;
}

/**
 * For the password sign-in with `bind_pending: true` of an account with a second factor: takes this browser's
 * pending-bind ticket single-use (the waiting sign-in carries the account until the factor is right) and clears the
 * cookie. Throws 404 PendingBindNotFound without a valid ticket, as `consumePendingBind` does.
 */
export async function takeBrowserPendingBind(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<PendingBind> {
  const ticket = req.cookies?.[OAUTH_BIND_COOKIE];
  if (ticket !== undefined) reply.clearCookie(OAUTH_BIND_COOKIE, bindCookieOptions(ctx));
  const bind = await takePendingBind(ctx, ticket);
  if (!bind) throw new AppError(404, 'PendingBindNotFound');
  return bind;
}

/**
 * Third-party sign-in (OAuth 2.0 code flow with state and PKCE; ./oauth.ts) and the pending bind. The two GETs are
 * browser navigations (no X-Requested-With, no CSRF token): every outcome is a redirect, failures to the
 * `/login/errors` pages, and nothing about the code, the token or the secret reaches the answer or the log.
 */
export const oauthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;
  const stateCookieOptions = {
    path: '/login/oauth',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: ctx.secureCookies,
    maxAge: OAUTH_STATE_TTL_MS / 1000,
  };

  app.get(
    '/login/oauth/:provider',
    {
      config: { auth: 'public', limit: { name: 'oauth-start', perAddress: OAUTH_STARTS_PER_ADDRESS_MINUTE } },
      schema: {
        tags: ['login'],
        summary:
          'Starts a third-party sign-in: a redirect to the provider (state, PKCE S256), or to the notSupported page',
        params: ProviderParamsSchema,
        querystring: StartQuerySchema,
      },
    },
    async (req, reply) => {
      const { provider } = req.params;
      if (!isOAuthProvider(provider)) return reply.redirect(loginErrorPath('notSupported'));
      const started = await startOAuth(ctx, {
        provider,
        next: req.query.next,
        redirectUri: redirectUriOf(ctx, req, provider),
        browserNonce: req.cookies?.[OAUTH_STATE_COOKIE],
      });
      if (started.kind === 'notSupported') return reply.redirect(loginErrorPath('notSupported', provider));
      reply.setCookie(OAUTH_STATE_COOKIE, started.browserNonce, stateCookieOptions);
      return reply.redirect(started.location);
    },
  );

  app.get(
    REAUTH_PATHS.provider,
    {
      config: { auth: 'public', limit: { name: 'oauth-start', perAddress: OAUTH_STARTS_PER_ADDRESS_MINUTE } },
      schema: {
        tags: ['login'],
        summary:
          'Re-authentication of a signed-in third-party account: a redirect to its provider asking it to sign the ' +
          'person in afresh (prompt=login, max_age=0); the callback takes only the account bound to this session’s ' +
          'own account, then rotates the session and returns to `next` (a local path). Without a session: the ' +
          'sign-in page',
        params: ProviderParamsSchema,
        querystring: StartQuerySchema,
      },
    },
    async (req, reply) => {
      const { provider } = req.params;
      if (!req.session) return reply.redirect(ctx.edition.paths.relogin);
      if (!isOAuthProvider(provider)) return reply.redirect(loginErrorPath('notSupported'));
      const started = await startOAuth(ctx, {
        provider,
        next: reauthLanding(ctx, req.query.next),
        redirectUri: redirectUriOf(ctx, req, provider),
        browserNonce: req.cookies?.[OAUTH_STATE_COOKIE],
        reauth: true,
      });
      if (started.kind === 'notSupported') return reply.redirect(loginErrorPath('notSupported', provider));
      reply.setCookie(OAUTH_STATE_COOKIE, started.browserNonce, stateCookieOptions);
      return reply.redirect(started.location);
    },
  );

  app.get(
    '/login/oauth/:provider/callback',
    {
      config: { auth: 'public', limit: { name: 'oauth-callback', perAddress: OAUTH_STARTS_PER_ADDRESS_MINUTE } },
      schema: {
        tags: ['login'],
        summary:
          'Where the provider returns: signs a bound account in (redirect to next), keeps an unbound one for binding ' +
          '(redirect to the notBound page), else a redirect to the failure page',
        params: ProviderParamsSchema,
        querystring: CallbackQuerySchema,
      },
    },
    async (req, reply) => {
      const { provider } = req.params;
      if (!isOAuthProvider(provider)) return reply.redirect(loginErrorPath('notSupported'));
      const fail = (type: Parameters<typeof loginErrorPath>[0], reason: string) => {
        req.log.warn({ provider, outcome: type, reason }, 'third-party sign-in failed');
        return reply.redirect(loginErrorPath(type, provider));
      };
      try {
        const outcome = await finishOAuth(ctx, {
          provider,
          code: req.query.code,
          state: req.query.state,
          error: req.query.error,
          browserNonce: req.cookies?.[OAUTH_STATE_COOKIE],
          redirectUri: redirectUriOf(ctx, req, provider),
        });
        if (outcome.kind === 'failed') return fail(outcome.type, outcome.reason);
        if (outcome.kind === 'reauth') {
          // Only the provider account bound to this session's own account proves it: another person's (or an
          // unbound) account proves nothing, and nothing is bound or signed in here.
          const session = req.session;
          if (!session || outcome.userId !== session.user.id) {
            if (session)
              await ctx.events.emit({
                type: 'reauth.failed',
                method: provider,
                reason: 'third-party-refused',
                to: { userId: session.user.id },
              });
            return fail('loginFailed', 'the re-authenticating account is not bound to the session’s account');
          }
          await recordProof(ctx, req, reply, provider);
          return reply.redirect(reauthLanding(ctx, outcome.next));
        }
        if (outcome.kind === 'unbound') {
          const ticket = await createPendingBind(ctx, {
            provider,
            openId: outcome.openId,
            name: outcome.name,
            previousTicket: req.cookies?.[OAUTH_BIND_COOKIE],
          });
          reply.setCookie(OAUTH_BIND_COOKIE, ticket, { ...bindCookieOptions(ctx), maxAge: PENDING_BIND_TTL_MS / 1000 });
          req.log.info({ provider }, 'third-party account not bound: waiting for a password sign-in to bind it');
          return reply.redirect(loginErrorPath('notBound', provider));
        }
        const marks = await readMarks(ctx, req);
        if (await ctx.secondFactors.hasFactor(outcome.userId)) {
          // Half a sign-in: the provider vouched for the person, the second factor is still due. No session yet; the
          // sign-in page (its first render brings the step) asks for it, and `next` waits with it.
          const account = await ctx.db
            .selectFrom('users')
            .select('username')
            .where('id', '=', outcome.userId)
            .executeTakeFirstOrThrow();
          await startStep(ctx, req, reply, {
            userId: outcome.userId,
            method: provider,
            lockKey: account.username,
            lock: await lockFor(ctx, marks, outcome.userId),
            next: outcome.next,
          });
          req.log.info({ provider }, 'third-party sign-in: the second factor is due');
          const next = outcome.next ? `?next=${encodeURIComponent(outcome.next)}` : '';
          return reply.redirect(`${ctx.edition.paths.relogin}${next}`);
        }
        // A failed callback names no account (it failed before the provider named a bound one): only a success goes
        // to the account's history.
        await ctx.events.emit({ type: 'sign-in.succeeded', method: provider, to: { userId: outcome.userId } });
        await noteSignIn(ctx, outcome.userId, req.ip, req.headers['user-agent']);
        // Rotation, as at password sign-in: whatever session the browser had ends; the new one gets a new id. A
        // sign-in like any other: the browser gets the account's device mark (smart lockout), a new one each time.
        await openSession(ctx, req, reply, outcome.userId, { method: provider, marks });
        return reply.redirect(outcome.next ?? OAUTH_DEFAULT_LANDING);
      } catch (e) {
        // Only a message the flow wrote (no secret, token or code), or the kind of an unexpected error.
        const reason = e instanceof OAuthFlowError ? e.message : `unexpected ${e instanceof Error ? e.name : typeof e}`;
        if (!(e instanceof OAuthFlowError))
          req.log.error(
            { provider, error: { name: (e as Error)?.name, message: (e as Error)?.message } },
            'third-party sign-in error',
          );
        return fail('loginFailed', reason);
      }
    },
  );

  app.get(
    PENDING_BIND_PATH,
    {
      config: { auth: 'public', limit: { name: 'pending-bind', perAddress: PENDING_BIND_CALLS_PER_ADDRESS_MINUTE } },
      schema: {
        tags: ['login'],
        summary: 'The third-party account waiting in this browser to be bound by a password sign-in',
        response: { 200: PendingBindSchema, ...errorResponses },
      },
    },
    async (req, reply) => {
      const ticket = req.cookies?.[OAUTH_BIND_COOKIE];
      const bind = await findPendingBind(ctx, ticket);
      if (!bind) {
        if (ticket !== undefined) reply.clearCookie(OAUTH_BIND_COOKIE, bindCookieOptions(ctx));
        throw new AppError(404, 'PendingBindNotFound');
      }
      return bind;
    },
  );

  app.delete(
    PENDING_BIND_PATH,
    {
      config: {
        auth: 'public',
        csrf: 'xhr',
        limit: { name: 'pending-bind', perAddress: PENDING_BIND_CALLS_PER_ADDRESS_MINUTE },
      },
      schema: {
        tags: ['login'],
        summary: 'Forgets the third-party account waiting in this browser (needs X-Requested-With)',
        response: { 200: SuccessSchema, ...errorResponses },
      },
    },
    async (req, reply) => {
      const ticket = req.cookies?.[OAUTH_BIND_COOKIE];
      await forgetPendingBind(ctx, ticket);
      if (ticket !== undefined) reply.clearCookie(OAUTH_BIND_COOKIE, bindCookieOptions(ctx));
      return { success: true };
    },
  );
};
