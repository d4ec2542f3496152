import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AppError, errorResponses } from '../errors';
import {
  SliderPassSchema,
  SliderPuzzleBodySchema,
  SliderPuzzleSchema,
  SliderVerifyBodySchema,
} from '../../schemas/captcha';

/** New puzzles one client address may ask for per minute. */
export const PUZZLES_PER_MINUTE = 30;
/** Answers one client address may send per minute (each puzzle allows 5 anyway). */
export const ANSWERS_PER_MINUTE = 60;

const Params = Type.Object({ username: Type.String({ minLength: 1, maxLength: 256 }) });

/** The slider captcha (sign-in under attack, password recovery): a puzzle drawn here, an answer judged here. */
export const captchaRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  app.post(
    '/users/ajax/users/:username/sliderCaptcha',
    {
      config: { auth: 'public', csrf: 'xhr', limit: { name: 'captcha', perAddress: PUZZLES_PER_MINUTE } },
      schema: {
        tags: ['captcha'],
        summary: 'A new slider puzzle for a username (background with a gap, and the piece; PNG data URLs)',
        params: Params,
        body: Type.Optional(SliderPuzzleBodySchema),
        response: { 200: SliderPuzzleSchema, ...errorResponses },
      },
    },
    async (req) => ctx.captcha.create(req.params.username),
  );

  app.post(
    '/users/ajax/users/:username/sliderCaptcha::verify',
    {
      config: { auth: 'public', csrf: 'xhr', limit: { name: 'captcha-answer', perAddress: ANSWERS_PER_MINUTE } },
      schema: {
        tags: ['captcha'],
        summary: 'Judges an answer (position and trajectory, encrypted with the day key); a right one earns a pass',
        params: Params,
        body: SliderVerifyBodySchema,
        response: { 200: SliderPassSchema, ...errorResponses },
      },
    },
    async (req) => {
      const r = await ctx.captcha.verify(req.params.username, req.body.captcha_id, req.body.data);
      if (r.kind === 'expired') throw new AppError(410, 'CaptchaExpired');
      if (r.kind === 'failed') throw new AppError(400, 'CaptchaFailed', { remaining: r.remaining });
      return r.pass;
    },
  );
};
