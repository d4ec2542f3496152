import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError, errorResponses } from '../../../server/errors';
import { SuccessSchema } from '../../../schemas/common';
import {
  EndedSchema,
  SECURITY_PATHS,
  SecurityIdParamsSchema,
  SessionListSchema,
  TrustedBrowserListSchema,
} from '../contract';
import { endOtherSessions, endSession, listSessions, toTrustedBrowser } from './sessions-service';
import { openPlaces } from './places';
import { routePath } from './route-path';

const tags = ['security'];

/** The account's sessions and the browsers the lockout trusts (SECURITY_PATHS in ../contract). */
export const sessionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;
  // A session's approximate place only from a local database the admin configured (GEOIP_DATABASE); else none.
  const places = ctx.config.geoipDatabase ? openPlaces(ctx.config.geoipDatabase) : null;

  app.get(
    SECURITY_PATHS.sessions,
    {
      config: { auth: 'session' },
      schema: {
        tags,
        summary:
          'My live sessions, newest first: browser, sign-in method, last address (and its approximate place when the ' +
          'service has a local GeoIP database), when signed in and last active, when each ends if idle, which one is ' +
          'this call’s; and the idle and absolute timeouts',
        response: { 200: SessionListSchema, ...errorResponses },
      },
    },
    async (req) =>
      listSessions(ctx, req.session!.user.id, req.session!.idHash, places && ((a) => places(a, req.locale))),
  );

  app.delete(
    SECURITY_PATHS.session,
    {
      config: { auth: 'session', reauth: true },
      schema: {
        tags,
        summary:
          'Sign out one of my other sessions: its next request answers 401, on every instance. Anyone else’s session ' +
          'answers 404 SessionNotFound as an unknown one; this call’s own 409 SessionIsCurrent (sign out instead)',
        params: SecurityIdParamsSchema,
        response: { 200: EndedSchema, ...errorResponses },
      },
    },
    async (req) => ({
      ended: await endSession(ctx, req.session!.user.id, req.params.id, req.session!.idHash, 'member'),
    }),
  );

  app.post(
    routePath(SECURITY_PATHS.endOthers),
    {
      config: { auth: 'session', reauth: true },
      schema: {
        tags,
        summary: 'Sign out all my sessions but this one; answers how many ended',
        response: { 200: EndedSchema, ...errorResponses },
      },
    },
    async (req) => ({
      ended: await endOtherSessions(ctx, req.session!.user.id, req.session!.idHash, 'member'),
    }),
  );

  app.get(
    SECURITY_PATHS.trustedBrowsers,
    {
      config: { auth: 'session' },
      schema: {
        tags,
        summary:
          'The browsers the sign-in lockout trusts for my account (a sign-in there marked them; their failures do not ' +
          'lock out strangers’ lock), most recently used first, and which one is this call’s',
        response: { 200: TrustedBrowserListSchema, ...errorResponses },
      },
    },
    async (req) => {
      const list = ctx.trustedBrowsers ? await ctx.trustedBrowsers.list(req.session!.user.id, req) : [];
      return { browsers: list.map(toTrustedBrowser) };
    },
  );

  app.delete(
    SECURITY_PATHS.trustedBrowser,
    {
      // Behind a fresh proof although it only lowers trust: a stolen session could otherwise forget the owner's
      // browsers, then lock the owner out with five wrong passwords from anywhere (they would all be strangers).
      config: { auth: 'session', reauth: true },
      schema: {
        tags,
        summary:
          'Forget one of my trusted browsers: its sign-ins count as a stranger’s for the lockout until it signs in ' +
          'again. Anyone else’s answers 404 TrustedBrowserNotFound as an unknown one',
        params: SecurityIdParamsSchema,
        response: { 200: SuccessSchema, ...errorResponses },
      },
    },
    async (req) => {
      const forgot = await ctx.trustedBrowsers?.forget(req.session!.user.id, req.params.id);
      if (!forgot) throw new AppError(404, 'TrustedBrowserNotFound');
      return { success: true };
    },
  );
};
