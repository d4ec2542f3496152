import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError, errorResponses } from '../../../server/errors';
import { SESSION_COOKIE } from '../../../server/auth/sessions';
import { MeSchema, toMe } from '../../../server/routes/core';
import type { SessionUser } from '../../../server/context';
import { changePassword, safeNextUrl, signIn } from './service';

/** Sign-in request body. */
export const LoginBody = Type.Object(
  {
    username: Type.String({ minLength: 1, maxLength: 256 }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
    captcha: Type.Optional(
      Type.Record(
        Type.String({ maxLength: 64 }),
        Type.Union([Type.String({ maxLength: 4096 }), Type.Number(), Type.Boolean()]),
      ),
    ),
  },
  { additionalProperties: false },
);

/** Sign-in answer: who signed in, whether a password change is forced, and the CSRF token of the new session. */
export const LoginResult = Type.Object(
  { user: MeSchema, must_change_password: Type.Boolean(), csrf_token: Type.String() },
  { additionalProperties: false },
);

/** Password change body (`old_password` only when the account has one). */
export const ChangePasswordBody = Type.Object(
  {
    new_password: Type.String({ minLength: 1, maxLength: 128 }),
    old_password: Type.Optional(Type.String({ maxLength: 1024 })),
  },
  { additionalProperties: false },
);

/** Sign-in, availability check, logout and password change, at the suite's paths. */
export const loginRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;
  const cookieOptions = { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: ctx.secureCookies };

  app.post(
    '/users/ajax/login',
    {
      config: { auth: 'public', csrf: 'xhr' },
      schema: {
        tags: ['login'],
        summary: 'Sign in with account and password (needs X-Requested-With; no CSRF token yet)',
        body: LoginBody,
        response: { 200: LoginResult, ...errorResponses },
      },
    },
    async (req, reply) => {
      const result = await signIn(ctx, req.body.username, req.body.password);
      if (result.kind === 'locked') throw new AppError(423, 'AccountLocked');
      if (result.kind === 'incorrect') throw new AppError(401, 'AccountOrPasswordIncorrect');
      // Rotation: whatever session the browser had ends; the new one gets a new id.
      if (req.session) await ctx.sessions.destroy(req.session.idHash);
      const s = await ctx.sessions.create(result.user.id);
      reply.setCookie(SESSION_COOKIE, s.id, cookieOptions);
      const { password_hash: _p, ...user } = result.user;
      return {
        user: toMe(user as SessionUser),
        must_change_password: result.user.must_change_password === 1,
        csrf_token: s.csrfToken,
      };
    },
  );

  app.get(
    '/users/ajax/users/:username/check',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['login'],
        summary: 'Whether a sign-in for this name is currently possible (same answer for unknown names)',
        params: Type.Object({ username: Type.String({ minLength: 1, maxLength: 256 }) }),
        response: {
          200: Type.Object({ locked: Type.Boolean(), need_captcha: Type.Boolean() }, { additionalProperties: false }),
          ...errorResponses,
        },
      },
    },
    async (req) => ({ locked: await ctx.lockout.isLocked(req.params.username), need_captcha: false }),
  );

  app.get(
    '/users/logout',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['login'],
        summary: 'Ends the session server-side and redirects to a validated next URL (else the sign-in page)',
        querystring: Type.Object(
          { next: Type.Optional(Type.String({ maxLength: 2048 })) },
          { additionalProperties: false },
        ),
      },
    },
    async (req, reply) => {
      if (req.session) await ctx.sessions.destroy(req.session.idHash);
      reply.clearCookie(SESSION_COOKIE, cookieOptions);
      const next = safeNextUrl(req.query.next, req.host, ctx.config.publicUrl);
      return reply.redirect(next ?? ctx.edition.paths.relogin);
    },
  );

  app.put(
    '/users/ajax/v1/my/password',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['login'],
        summary: 'Change the password (also the forced change after sign-in); ends the other sessions',
        headers: Type.Object({ user_agent: Type.Optional(Type.String()), 'umid-token': Type.Optional(Type.String()) }),
        body: ChangePasswordBody,
        response: { 200: Type.Object({ success: Type.Boolean() }, { additionalProperties: false }), ...errorResponses },
      },
    },
    async (req) => {
      const s = req.session!;
      await changePassword(ctx, s.user.id, s.idHash, req.body.new_password, req.body.old_password);
      return { success: true };
    },
  );
};
