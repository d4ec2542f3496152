import fastifyMultipart from '@fastify/multipart';
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, errorResponses } from '../../../server/errors';
import { toMe } from '../../../server/routes/core';
import { AVATAR_MAX_BYTES, type ProfileLanguage } from '../contract';
import {
  bindAttributes,
  bindEmail,
  getLanguage,
  readAvatar,
  setAvatar,
  setLanguage,
  storeAvatar,
  unbindEmail,
  updateMe,
  verifyEmail,
  type MailOrigin,
} from './service';

/** Cookie the web app reads its language from (first of the locale cookies). */
export const LOCALE_COOKIE = 'ak_user_locale';

const Language = Type.Union([Type.Literal('zh_CN'), Type.Literal('en_US')]);
const EmailBody = Type.Object(
  { email: Type.String({ minLength: 1, maxLength: 320 }) },
  { additionalProperties: false },
);
const EmailStateSchema = Type.Object(
  {
    email: Type.Union([Type.String(), Type.Null()]),
    email_verified: Type.Boolean(),
    resend_available_at: Type.Union([Type.Number(), Type.Null()]),
    server_time: Type.Number(),
  },
  { additionalProperties: false },
);
const emailResponse = { 200: EmailStateSchema, ...errorResponses };
const LanguageAnswer = Type.Object({ language: Type.Union([Language, Type.Null()]) }, { additionalProperties: false });

/** Profile section: account fields, language, avatar upload/serve/set, notification e-mail. */
export const profileRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;
  // Multipart only for this plugin's scope (the avatar upload); limits refuse oversized files while streaming.
  if (!app.hasContentTypeParser('multipart/form-data')) {
    await app.register(fastifyMultipart, {
      limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 4, parts: 5, headerPairs: 50 },
    });
  }

  const setLocaleCookie = (reply: FastifyReply, language: ProfileLanguage) =>
    reply.setCookie(LOCALE_COOKIE, language, {
      path: '/',
      maxAge: 365 * 24 * 3600,
      sameSite: 'lax',
      secure: ctx.secureCookies,
    });
  const mailOrigin = (req: FastifyRequest): MailOrigin => ({
    baseUrl: ctx.config.publicUrl ?? `${req.protocol}://${req.host}`,
    locale: req.locale,
    log: req.log,
  });

  app.put(
    '/individual/proxy/me',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['profile'],
        summary: 'Change the display name and/or language of the signed-in user (language also sets the locale cookie)',
        body: Type.Object(
          { name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })), language: Type.Optional(Language) },
          { additionalProperties: false },
        ),
        response: { 200: Type.Ref('Me'), ...errorResponses },
      },
    },
    async (req, reply) => {
      const user = await updateMe(ctx, req.session!.user.id, req.body);
      if (req.body.language) setLocaleCookie(reply, req.body.language);
      return toMe(user);
    },
  );

  app.get(
    '/users/ajax/v1/my/attributes::bind',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['profile'],
        summary:
          'What the account has bound (password, e-mail), so the page asks for the old password only if one exists',
        response: {
          200: Type.Object(
            {
              has_password: Type.Boolean(),
              email: Type.Union([Type.String(), Type.Null()]),
              email_verified: Type.Boolean(),
            },
            { additionalProperties: false },
          ),
          ...errorResponses,
        },
      },
    },
    async (req) => bindAttributes(ctx, req.session!.user.id),
  );

  app.get(
    '/users/ajax/v1/my/preferences',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['profile'],
        summary: 'The saved language preference (null until chosen)',
        response: { 200: LanguageAnswer, ...errorResponses },
      },
    },
    async (req) => ({ language: await getLanguage(ctx, req.session!.user.id) }),
  );

  app.put(
    '/users/ajax/v1/my/preferences',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['profile'],
        summary: 'Save the language preference; also sets the ak_user_locale cookie',
        body: Type.Object({ language: Language }, { additionalProperties: false }),
        response: { 200: LanguageAnswer, ...errorResponses },
      },
    },
    async (req, reply) => {
      await setLanguage(ctx, req.session!.user.id, req.body.language);
      setLocaleCookie(reply, req.body.language);
      return { language: req.body.language };
    },
  );

  app.put(
    '/api/ajax/teambition/api/users/language',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['profile'],
        summary: 'Legacy language switch (form-encoded `language`), same effect as PUT preferences',
        body: Type.Object({ language: Language }, { additionalProperties: false }),
        response: { 200: LanguageAnswer, ...errorResponses },
      },
    },
    async (req, reply) => {
      await setLanguage(ctx, req.session!.user.id, req.body.language);
      setLocaleCookie(reply, req.body.language);
      return { language: req.body.language };
    },
  );

  app.post(
    '/objects/ajax/avatars',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['profile'],
        summary: 'Upload an avatar (multipart `file`, ≤ 1 MB, PNG/JPEG/GIF by content); answers the URL to set',
        consumes: ['multipart/form-data'],
        response: {
          200: Type.Object({ url: Type.String() }, { additionalProperties: false }),
          ...errorResponses,
        },
      },
    },
    async (req) => {
      if (!req.isMultipart()) throw new AppError(415, 'UnsupportedMediaType');
      let data: Buffer | undefined;
      try {
        const part = await req.file();
        if (!part) throw new AppError(400, 'InvalidParameter', { detail: 'file' });
        data = await part.toBuffer();
        // Anything after the one file (a second file, stray fields) is drained and ignored.
      } catch (e) {
        if (e instanceof AppError) throw e;
        const code = (e as { code?: string }).code;
        if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(413, 'ProfileAvatarTooLarge');
        if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
          throw new AppError(400, 'InvalidParameter', { detail: 'file' });
        throw new AppError(400, 'InvalidParameter', { detail: 'multipart' });
      }
      return storeAvatar(ctx, req.session!.user.id, data);
    },
  );

  app.get(
    '/objects/avatars/:name',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['profile'],
        summary: 'An avatar stored by this service (served as the image type it was re-encoded to, nosniff)',
        params: Type.Object(
          { name: Type.String({ pattern: '^[0-9a-f]{32}\\.(png|jpg|gif)$' }) },
          { additionalProperties: false },
        ),
      },
    },
    async (req, reply) => {
      const found = await readAvatar(ctx, req.params.name);
      if (!found) throw new AppError(404, 'NotFound');
      return reply
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('content-disposition', 'inline')
        .type(found.contentType)
        .send(found.data);
    },
  );

  app.put(
    '/individual/proxy/my/avatar',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['profile'],
        summary:
          'Set the avatar to an own upload (its URL from POST /objects/ajax/avatars), or null/"" for the default',
        body: Type.Object(
          { avatar: Type.Union([Type.String({ maxLength: 200 }), Type.Null()]) },
          { additionalProperties: false },
        ),
        response: { 200: Type.Ref('Me'), ...errorResponses },
      },
    },
    async (req) => toMe(await setAvatar(ctx, req.session!.user.id, req.body.avatar)),
  );

  app.post(
    '/users/ajax/v1/my/emails::bind',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['profile'],
        summary: 'Bind a notification e-mail (or resend for the same unverified one); sends the activation mail',
        body: EmailBody,
        response: emailResponse,
      },
    },
    async (req) => bindEmail(ctx, req.session!.user.id, req.body.email, 'bind', mailOrigin(req)),
  );

  app.post(
    '/users/ajax/v1/my/emails::rebind',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['profile'],
        summary: 'Change the bound e-mail; the new one is unverified until its activation link is opened',
        body: EmailBody,
        response: emailResponse,
      },
    },
    async (req) => bindEmail(ctx, req.session!.user.id, req.body.email, 'rebind', mailOrigin(req)),
  );

  app.post(
    '/individual/proxy/my/email::unbind',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['profile'],
        summary: 'Remove the bound e-mail (must name it); it stops receiving notification mail',
        body: EmailBody,
        response: emailResponse,
      },
    },
    async (req) => unbindEmail(ctx, req.session!.user.id, req.body.email),
  );

  app.post(
    '/individual/proxy/my/email::verify',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['profile'],
        summary: 'Spend the activation token from the mail (single use, 24 h, bound to the user and the address)',
        body: Type.Object({ token: Type.String({ minLength: 1, maxLength: 128 }) }, { additionalProperties: false }),
        response: emailResponse,
      },
    },
    async (req) => verifyEmail(ctx, req.session!.user.id, req.body.token),
  );
};
