import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { errorResponses } from '../../../server/errors';
import { SuccessSchema } from '../../../schemas/common';
import {
  EmailCaptchaBodySchema,
  EmailCaptchaSentSchema,
  EmailCaptchaVerifyBodySchema,
  PasswordResetBodySchema,
  RecoveryFlowSchema,
  RecoveryParamsSchema,
  ResetTicketSchema,
  RetrieveBodySchema,
} from '../contract';
import { resetPassword, sendCode, startRecovery, verifyCode, type RecoveryOrigin } from './service';

const origin = (req: FastifyRequest): RecoveryOrigin => ({ ip: req.ip, locale: req.locale, log: req.log });
/** Public calls (no session yet): X-Requested-With is the CSRF defence, as for sign-in. */
const config = { auth: 'public', csrf: 'xhr' } as const;

/** The forgot-password wizard's calls: open with a slider pass → mailed code → ticket → new password. */
export const resetPasswordRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  app.post(
    '/users/ajax/users/:username/password::retrieve',
    {
      config,
      schema: {
        tags: ['password recovery'],
        summary: 'Opens a recovery with a slider pass solved for the name (spent); answers the masked e-mail',
        params: RecoveryParamsSchema,
        body: RetrieveBodySchema,
        response: { 200: RecoveryFlowSchema, ...errorResponses },
      },
    },
    async (req) => startRecovery(ctx, req.params.username, req.body.captcha_pass, origin(req)),
  );

  app.post(
    '/users/ajax/users/:username/emailCaptcha',
    {
      config,
      schema: {
        tags: ['password recovery'],
        summary: 'Mails a 6-digit code (10 minutes, single use) to the verified e-mail; once a minute',
        params: RecoveryParamsSchema,
        body: EmailCaptchaBodySchema,
        response: { 200: EmailCaptchaSentSchema, ...errorResponses },
      },
    },
    async (req) => sendCode(ctx, req.params.username, req.body.flow, origin(req)),
  );

  app.post(
    '/users/ajax/users/:username/emailCaptcha::verify',
    {
      config,
      schema: {
        tags: ['password recovery'],
        summary: 'Checks the mailed code (5 tries); a right one earns the one-time reset ticket (10 minutes)',
        params: RecoveryParamsSchema,
        body: EmailCaptchaVerifyBodySchema,
        response: { 200: ResetTicketSchema, ...errorResponses },
      },
    },
    async (req) => verifyCode(ctx, req.params.username, req.body.flow, req.body.code),
  );

  app.put(
    '/users/ajax/users/:username/password::reset',
    {
      config,
      schema: {
        tags: ['password recovery'],
        summary: 'Sets the new password with the ticket; ends every session, clears the lock, mails a notice',
        params: RecoveryParamsSchema,
        body: PasswordResetBodySchema,
        response: { 200: SuccessSchema, ...errorResponses },
      },
    },
    async (req) => {
      await resetPassword(ctx, req.params.username, req.body.ticket, req.body.new_password);
      return { success: true };
    },
  );
};
