import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { errorResponses } from '../../../server/errors';
import type { Lock } from '../../../server/auth/lockout';
import type { AppContext } from '../../../server/context';
import { SuccessSchema } from '../../../schemas/common';
import { AuthenticationOptionsSchema } from '../../../schemas/second-factor';
import {
  EmailCaptchaBodySchema,
  EmailCaptchaSentSchema,
  EmailCaptchaVerifyBodySchema,
  PasswordResetBodySchema,
  RecoveryFactorOptionsBodySchema,
  RecoveryFlowSchema,
  RecoveryParamsSchema,
  ResetTicketSchema,
  RetrieveBodySchema,
} from '../contract';
import {
  recoveryFactorOptions,
  resetPassword,
  sendCode,
  startRecovery,
  verifyCode,
  type RecoveryOrigin,
} from './service';

const origin = (req: FastifyRequest): RecoveryOrigin => ({ ip: req.ip, locale: req.locale, log: req.log });
/** Public calls (no session yet): X-Requested-With is the CSRF defence, as for sign-in. */
const config = { auth: 'public', csrf: 'xhr' } as const;

/** WebAuthn options one client address may ask for per minute during recoveries. */
export const RECOVERY_FACTOR_OPTIONS_PER_ADDRESS_MINUTE = 30;

/**
 * The lock a recovery's factor answer counts in, as a sign-in from this browser would (smart lockout): the marked one
 * when the browser carries a current device mark of the account (`ctx.trustedBrowsers`), else the unmarked one.
 */
const lockOf =
  (ctx: AppContext, req: FastifyRequest) =>
  async (userId: string): Promise<Lock> => {
    if (!ctx.trustedBrowsers) return 'unmarked';
    return (await ctx.trustedBrowsers.list(userId, req)).some((b) => b.current) ? 'marked' : 'unmarked';
  };

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
        summary:
          'Checks the mailed code (5 tries); a right one earns the one-time reset ticket (10 minutes). For an account ' +
          'with a second factor the answer says which (`second_factor`): the reset must answer it',
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
        summary:
          'Sets the new password with the ticket; ends every session, clears the lock, mails a notice. An account ' +
          'with a second factor must answer it in `second_factor` (an authenticator code, a recovery code or a ' +
          'passkey assertion): without it 400 SecondFactorRequired, a wrong one 401 RecoveryFactorWrong (it counts in ' +
          'the sign-in lockout: the 5th locks the account for an hour, 423 RecoveryAccountLocked); nothing changes ' +
          'until it is right',
        params: RecoveryParamsSchema,
        body: PasswordResetBodySchema,
        response: { 200: SuccessSchema, ...errorResponses },
      },
    },
    async (req) => {
      await resetPassword(ctx, req.params.username, req.body.ticket, req.body.new_password, {
        proof: req.body.second_factor,
        lock: lockOf(ctx, req),
        ip: req.ip,
      });
      return { success: true };
    },
  );

  app.post(
    '/users/ajax/users/:username/password::second-factor-options',
    {
      config: {
        ...config,
        limit: { name: 'recovery-factor-options', perAddress: RECOVERY_FACTOR_OPTIONS_PER_ADDRESS_MINUTE },
      },
      schema: {
        tags: ['password recovery'],
        summary:
          'WebAuthn options to answer the recovery’s second factor with one of the account’s passkeys (a ' +
          'single-use challenge); the reset ticket names the account',
        params: RecoveryParamsSchema,
        body: RecoveryFactorOptionsBodySchema,
        response: { 200: AuthenticationOptionsSchema, ...errorResponses },
      },
    },
    async (req) => recoveryFactorOptions(ctx, req.params.username, req.body.ticket),
  );
};
