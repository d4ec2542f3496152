import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError, errorResponses } from '../../../server/errors';
import { sessionCookieName } from '../../../server/auth/sessions';
import { safeEqual } from '../../../server/auth/random';
import { requireFreshProofToChangePassword } from '../../../server/auth/reauth';
import { SuccessSchema } from '../../../schemas/common';
import {
  ChangePasswordBodySchema,
  ChangePasswordHeadersSchema,
  LoginAnswerSchema,
  LoginBodySchema,
  LogoutBodySchema,
  LogoutQuerySchema,
  UsernameCheckAnswerSchema,
  UsernameCheckHeadersSchema,
  UsernameCheckParamsSchema,
} from '../contract';
import { accountLookupLimit, enforceLimit } from '../../../server/http/rate-limit';
import { changePassword, checkUsername, safeNextUrl, signIn, stateCheckLimit } from './service';
import { directorySignIn } from './directory';
import { consumePendingBind, takeBrowserPendingBind } from './oauth-routes';
import { logoutPage } from './logout-page';
import { readMarks } from './device-mark';
import { openSession, signedIn } from './session-start';
import { startStep } from './second-step';

/** Sign-in attempts one client address may make per minute (whatever the names). */
export const SIGNINS_PER_ADDRESS_MINUTE = 60;

/** Sign-in, availability check, logout and password change, at the suite's paths. */
export const loginRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;
  const cookieOptions = { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: ctx.secureCookies };
  // `__Host-account_session` on https (Secure, Path=/, no Domain), `account_session` on http.
  const sessionCookie = sessionCookieName(ctx.secureCookies);

  app.post(
    '/users/ajax/login',
    {
      // Per address on top of the per-name lockout: a sweep over many names from one place stops here.
      config: { auth: 'public', csrf: 'xhr', limit: { name: 'signin', perAddress: SIGNINS_PER_ADDRESS_MINUTE } },
      schema: {
        tags: ['login'],
        summary:
          'Sign in with account and password, the password checked by the account or by a directory (LDAP, ' +
          'Windows AD); needs X-Requested-With, no CSRF token yet. An account with a second factor gets no session ' +
          'yet: the answer is the second step (`second_factor`), waiting in this browser (an httpOnly cookie) for ' +
          'POST /users/ajax/login/second-factor',
        body: LoginBodySchema,
        response: { 200: LoginAnswerSchema, ...errorResponses },
      },
    },
    async (req, reply) => {
      const { username, password, captcha_pass: captchaPass, method = 'password', org_id: orgId } = req.body;
      const marks = await readMarks(ctx, req);
      const attempt = { username, password, captchaPass, ip: req.ip, userAgent: req.headers['user-agent'], marks };
      const result =
        method === 'password'
          ? await signIn(ctx, attempt)
          : await directorySignIn(ctx, { ...attempt, kind: method, orgId, log: req.log });
      if (result.kind === 'locked') throw new AppError(423, 'AccountLocked');
      if (result.kind === 'incorrect') throw new AppError(401, 'AccountOrPasswordIncorrect');
      if (result.kind === 'captchaRequired') throw new AppError(403, 'CaptchaRequired');
      if (result.kind === 'captchaInvalid') throw new AppError(403, 'CaptchaInvalid');
      if (result.kind === 'secondFactor') {
        // Half a sign-in: nothing is bound and no session exists before the second factor. The third-party account
        // waiting in this browser goes with the waiting sign-in (its own ticket is spent now).
        const bind = req.body.bind_pending ? await takeBrowserPendingBind(ctx, req, reply) : null;
        const challenge = await startStep(ctx, req, reply, {
          userId: result.user.id,
          method,
          lockKey: result.key,
          lock: result.lock,
          bind,
        });
        return { second_factor: challenge };
      }
      // The third-party account waiting in this browser is bound before any session exists: a refused bind leaves none.
      if (req.body.bind_pending) await consumePendingBind(ctx, req, reply, result.user.id);
      // Rotation: whatever session the browser had ends; the new one gets a new id.
      const { csrfToken } = await openSession(ctx, req, reply, result.user.id, { method, marks });
      return signedIn(result.user, csrfToken);
    },
  );

  app.get(
    '/users/ajax/users/:username/check',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['login'],
        summary:
          'Whether a sign-in for this name is locked or needs the slider (same answer for unknown names); with a ' +
          'slider pass in X-Captcha-Pass, also whether the account exists and has a verified e-mail (masked)',
        params: UsernameCheckParamsSchema,
        headers: UsernameCheckHeadersSchema,
        response: { 200: UsernameCheckAnswerSchema, ...errorResponses },
      },
    },
    async (req) => {
      const { username } = req.params;
      const pass = req.headers['x-captcha-pass'];
      await enforceLimit(ctx, pass ? accountLookupLimit(ctx, req.ip) : stateCheckLimit(ctx, req.ip));
      return checkUsername(ctx, username, req.ip, pass, await readMarks(ctx, req));
    },
  );

  app.get(
    '/users/logout',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['login'],
        summary:
          'The seed’s logout address: with a session, a "sign out?" page whose button POSTs the session’s CSRF ' +
          'token (a GET never ends a session, so another site cannot sign anyone out); without one, the redirect ' +
          'to a validated next URL (else the sign-in page)',
        querystring: LogoutQuerySchema,
      },
    },
    async (req, reply) => {
      const target = safeNextUrl(req.query.next, ctx);
      if (!req.session) return reply.redirect(target ?? ctx.edition.paths.relogin);
      const absolute = target && /^https?:\/\//i.test(target) ? [new URL(target).origin] : [];
      const page = logoutPage({
        locale: req.locale,
        name: req.session.user.name || req.session.user.username,
        csrfToken: req.session.csrfToken,
        next: req.query.next,
        cancel: target ?? '/users/settings',
        color: ctx.edition.brand.color,
        colorScheme: req.session.user.color_scheme,
        formOrigins: absolute,
      });
      return reply.header('content-security-policy', page.csp).type('text/html; charset=utf-8').send(page.html);
    },
  );

  app.post(
    '/users/logout',
    {
      // A browser form cannot send X-Requested-With: the session's CSRF token comes in the body (or the header).
      config: { auth: 'public', csrf: 'form' },
      schema: {
        tags: ['login'],
        summary:
          'Ends the session server-side (needs its CSRF token, as the form field csrf_token or X-CSRF-Token) and ' +
          'redirects (303) to a validated next URL, else the sign-in page',
        querystring: LogoutQuerySchema,
        body: LogoutBodySchema,
      },
    },
    async (req, reply) => {
      // The target first (the redirect rule answers percent-encoded ASCII), so nothing can fail after the session ended.
      const location = safeNextUrl(req.body?.next ?? req.query.next, ctx) ?? ctx.edition.paths.relogin;
      if (req.session) {
        const header = req.headers['x-csrf-token'];
        const sent = req.body?.csrf_token ?? (typeof header === 'string' ? header : undefined);
        if (!sent || !safeEqual(sent, req.session.csrfToken)) throw new AppError(403, 'CsrfRejected');
        await ctx.sessions.destroy(req.session.idHash);
      }
      reply.clearCookie(sessionCookie, cookieOptions);
      return reply.redirect(location, 303);
    },
  );

  app.put(
    '/users/ajax/v1/my/password',
    {
      config: { auth: 'session', beforePasswordChange: true },
      schema: {
        tags: ['login'],
        summary:
          'Change the password (also the forced change after sign-in); ends the other sessions. Changing an existing ' +
          'password needs a recent proof (403 ReauthRequired; re-authentication). A first password ' +
          'needs what an e-mail change needs: a directory account its directory password (old_password), an ' +
          'account with an address the code mailed there (code; emails:code with purpose password). A wrong ' +
          'current password, directory password or code counts as a failed sign-in: the 5th locks the account ' +
          'for an hour (423 AccountLocked)',
        headers: ChangePasswordHeadersSchema,
        body: ChangePasswordBodySchema,
        response: { 200: SuccessSchema, ...errorResponses },
      },
    },
    async (req) => {
      const s = req.session!;
      // Asked before anything is judged: a change of the password needs a recent proof; a first one its own.
      await requireFreshProofToChangePassword(ctx, s);
      const marks = await readMarks(ctx, req);
      await changePassword(ctx, {
        userId: s.user.id,
        keepSessionHash: s.idHash,
        newPassword: req.body.new_password,
        oldPassword: req.body.old_password,
        code: req.body.code,
        ip: req.ip,
        marks,
        log: req.log,
      });
      return { success: true };
    },
  );
};
