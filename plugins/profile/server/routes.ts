import fastifyMultipart from '@fastify/multipart';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, errorResponses } from '../../../server/errors';
import { toMe } from '../../../server/routes/core';
import { LOCALE_COOKIE } from '../../../schemas/locale';
import { MeRefSchema } from '../../../schemas/session';
import { isColorScheme } from '../../../schemas/color-scheme';
import {
  AppearanceSchema,
  AVATAR_MAX_BYTES,
  AVATAR_UPLOAD_WINDOW_MS,
  AVATAR_UPLOADS_PER_ADDRESS,
  AVATAR_UPLOADS_PER_USER,
  AvatarParamsSchema,
  AvatarSetBodySchema,
  AvatarUploadAnswerSchema,
  BindAttributesSchema,
  EmailBodySchema,
  EmailCodeAnswerSchema,
  EmailCodeBodySchema,
  EmailStateSchema,
  EmailVerifyBodySchema,
  LanguageAnswerSchema,
  LanguageBodySchema,
  MeUpdateBodySchema,
  type ProfileLanguage,
} from '../contract';
import {
  bindAttributes,
  bindEmail,
  getColorScheme,
  getLanguage,
  inUploadTurn,
  readAvatar,
  sendEmailChangeCode,
  setAvatar,
  setColorScheme,
  setLanguage,
  storeAvatar,
  unbindEmail,
  updateMe,
  verifyEmail,
  type MailOrigin,
} from './service';

const emailResponse = { 200: EmailStateSchema, ...errorResponses };

/** Profile section: account fields, language, appearance, avatar upload/serve/set, notification e-mail. */
/** Activation mails (bind and rebind together) per client address per hour, on top of one a minute per user. */
export const ACTIVATION_MAIL_LIMIT = { name: 'activation-mail', perAddress: 30, windowMs: 3_600_000 };
/** Avatar uploads per user and per client address, counted before the body is read (refused ones too). */
export const AVATAR_UPLOAD_LIMIT = {
  name: 'avatar-upload',
  perUser: AVATAR_UPLOADS_PER_USER,
  perAddress: AVATAR_UPLOADS_PER_ADDRESS,
  windowMs: AVATAR_UPLOAD_WINDOW_MS,
};

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
    ip: req.ip,
    log: req.log,
  });
  const proofOf = (body: { code?: string }) => ({ code: body.code });

  app.put(
    '/individual/proxy/me',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['profile'],
        summary: 'Change the display name and/or language of the signed-in user (language also sets the locale cookie)',
        body: MeUpdateBodySchema,
        response: { 200: MeRefSchema, ...errorResponses },
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
        response: { 200: BindAttributesSchema, ...errorResponses },
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
        response: { 200: LanguageAnswerSchema, ...errorResponses },
      },
    },
    async (req) => ({ language: await getLanguage(ctx, req.session!.user.id) }),
  );

  // The current call and the suite's legacy form-encoded switch do the same thing.
  const languageRoutes = [
    {
      url: '/users/ajax/v1/my/preferences',
      summary: 'Save the language preference; also sets the ak_user_locale cookie',
    },
    {
      url: '/api/ajax/teambition/api/users/language',
      summary: 'Legacy language switch (form-encoded `language`), same effect as PUT preferences',
    },
  ];
  for (const { url, summary } of languageRoutes) {
    app.put(
      url,
      {
        config: { auth: 'session' },
        schema: {
          tags: ['profile'],
          summary,
          body: LanguageBodySchema,
          response: { 200: LanguageAnswerSchema, ...errorResponses },
        },
      },
      async (req, reply) => {
        await setLanguage(ctx, req.session!.user.id, req.body.language);
        setLocaleCookie(reply, req.body.language);
        return { language: req.body.language };
      },
    );
  }

  app.get(
    '/users/ajax/v1/my/appearance',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['profile'],
        summary: "The account's colour scheme: system (follow the device; the default), light or dark",
        response: { 200: AppearanceSchema, ...errorResponses },
      },
    },
    async (req) => ({ colorScheme: await getColorScheme(ctx, req.session!.user.id) }),
  );

  app.put(
    '/users/ajax/v1/my/appearance',
    {
      config: { auth: 'session' },
      // A value other than the three is told in the caller's language (the schema's own message would be English).
      preValidation: async (req) => {
        const body: unknown = req.body;
        const value = body && typeof body === 'object' ? (body as Record<string, unknown>).colorScheme : undefined;
        if (!isColorScheme(value)) throw new AppError(400, 'ProfileColorSchemeInvalid');
      },
      schema: {
        tags: ['profile'],
        summary: "Keep the colour scheme on the account (what me and the page's bootstrap report as colorScheme)",
        body: AppearanceSchema,
        response: { 200: AppearanceSchema, ...errorResponses },
      },
    },
    async (req) => {
      await setColorScheme(ctx, req.session!.user.id, req.body.colorScheme);
      return { colorScheme: req.body.colorScheme };
    },
  );

  app.post(
    '/objects/ajax/avatars',
    {
      config: { auth: 'session', limit: AVATAR_UPLOAD_LIMIT },
      schema: {
        tags: ['profile'],
        summary:
          'Upload an avatar (multipart `file`, ≤ 1 MB, ≤ 4 megapixels, PNG/JPEG/GIF by content); answers the URL to set. ' +
          'It is the user’s one pending upload (a new one replaces it) until set, and removed when not set within an hour',
        consumes: ['multipart/form-data'],
        response: { 200: AvatarUploadAnswerSchema, ...errorResponses },
      },
    },
    async (req) => {
      if (!req.isMultipart()) throw new AppError(415, 'UnsupportedMediaType');
      const userId = req.session!.user.id;
      return inUploadTurn(ctx, userId, async () => {
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
        return storeAvatar(ctx, userId, data);
      });
    },
  );

  app.get(
    '/objects/avatars/:name',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['profile'],
        summary:
          'An avatar stored by this service (served as the image type it was re-encoded to, nosniff); an upload not ' +
          'yet set as an avatar only to its uploader',
        params: AvatarParamsSchema,
      },
    },
    async (req, reply) => {
      const found = await readAvatar(ctx, req.params.name, req.session?.user.id);
      if (!found) throw new AppError(404, 'NotFound');
      return reply
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', found.pending ? 'private, no-store' : 'public, max-age=31536000, immutable')
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
        body: AvatarSetBodySchema,
        response: { 200: MeRefSchema, ...errorResponses },
      },
    },
    async (req) => toMe(await setAvatar(ctx, req.session!.user.id, req.body.avatar)),
  );

  app.post(
    '/users/ajax/v1/my/emails::bind',
    {
      config: { auth: 'session', reauth: true, limit: ACTIVATION_MAIL_LIMIT },
      schema: {
        tags: ['profile'],
        summary:
          'Bind a notification e-mail (or resend for the same unverified one); sends the activation mail. Needs a ' +
          'recent proof (403 ReauthRequired); a new address of an account without a password also the code from ' +
          'emails:code',
        body: EmailBodySchema,
        response: emailResponse,
      },
    },
    async (req) => bindEmail(ctx, req.session!.user.id, req.body.email, 'bind', mailOrigin(req), proofOf(req.body)),
  );

  app.post(
    '/users/ajax/v1/my/emails::rebind',
    {
      config: { auth: 'session', reauth: true, limit: ACTIVATION_MAIL_LIMIT },
      schema: {
        tags: ['profile'],
        summary:
          'Change the bound e-mail: needs a recent proof (403 ReauthRequired; without a password also the code from ' +
          'emails:code); the new one is unverified until its activation link is opened, and the old one is told (the ' +
          'new one masked)',
        body: EmailBodySchema,
        response: emailResponse,
      },
    },
    async (req) => bindEmail(ctx, req.session!.user.id, req.body.email, 'rebind', mailOrigin(req), proofOf(req.body)),
  );

  app.post(
    '/users/ajax/v1/my/emails::code',
    {
      config: { auth: 'session', limit: ACTIVATION_MAIL_LIMIT },
      schema: {
        tags: ['profile'],
        summary:
          'For an account without a password: mail a code to the current address, to prove an e-mail change or ' +
          'setting the first password with (`purpose`; one a minute, 10 minutes valid)',
        // No body at all (the page before `purpose` existed) asks for an e-mail change code.
        body: Type.Union([EmailCodeBodySchema, Type.Null()]),
        response: { 200: EmailCodeAnswerSchema, ...errorResponses },
      },
    },
    async (req) => sendEmailChangeCode(ctx, req.session!.user.id, mailOrigin(req), req.body?.purpose),
  );

  app.post(
    '/individual/proxy/my/email::unbind',
    {
      config: { auth: 'session', reauth: true },
      schema: {
        tags: ['profile'],
        summary:
          'Remove the bound e-mail (must name it; a recent proof, 403 ReauthRequired; without a password also the ' +
          'code from emails:code); it stops receiving notification mail and is told',
        body: EmailBodySchema,
        response: emailResponse,
      },
    },
    async (req) => unbindEmail(ctx, req.session!.user.id, req.body.email, mailOrigin(req), proofOf(req.body)),
  );

  app.post(
    '/individual/proxy/my/email::verify',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['profile'],
        summary: 'Spend the activation token from the mail (single use, 24 h, bound to the user and the address)',
        body: EmailVerifyBodySchema,
        response: emailResponse,
      },
    },
    async (req) => verifyEmail(ctx, req.session!.user.id, req.body.token),
  );
};
