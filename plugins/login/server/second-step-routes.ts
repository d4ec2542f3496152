import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../../server/context';
import { AppError, errorResponses } from '../../../server/errors';
import { addressSubject } from '../../../server/http/rate-limit';
import { AuthenticationOptionsSchema, FactorProofSchema } from '../../../schemas/second-factor';
import { LoginResultSchema, PasskeySignInBodySchema, SECOND_STEP_PATHS } from '../contract';
import { noteSignIn } from './devices';
import { readMarks } from './device-mark';
import { bindAccount } from './oauth';
import { answerStep, bindOf, liveStep } from './second-step';
import { openSession, signedIn } from './session-start';

/** Second-step answers one client address may send per minute (the lockout counts the wrong ones per account). */
export const SECOND_STEP_CALLS_PER_ADDRESS_MINUTE = 30;
/** WebAuthn options (second step and passkey sign-in) one client address may ask for per minute. */
export const PASSKEY_OPTIONS_PER_ADDRESS_MINUTE = 30;
/** Refused passkey sign-ins from one client address after which it is refused unevaluated for the window. */
export const PASSKEY_FAILURES_PER_ADDRESS = 10;
/** The window those refusals are counted in (ms). */
export const PASSKEY_FAILURE_WINDOW_MS = 15 * 60 * 1000;

const passkeyFailureKey = (ctx: AppContext, ip: string) => `passkey-fail:ip:${addressSubject(ctx, ip)}`;

/** Colons in a path are literal here (Fastify reads `:name` as a parameter; `::` is one colon). */
const routePath = (path: string) => path.replace(/([^/]):/g, '$1::');

/**
 * The second step of a sign-in and the passkey sign-in (issue 41). Public calls (no session exists yet): the
 * X-Requested-With header is the CSRF defence, as for the first step; the waiting sign-in is named by its httpOnly
 * cookie only. Nothing of a code, an assertion or a challenge is logged.
 */
export const secondStepRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  app.post(
    SECOND_STEP_PATHS.secondFactor,
    {
      config: {
        auth: 'public',
        csrf: 'xhr',
        limit: { name: 'second-step', perAddress: SECOND_STEP_CALLS_PER_ADDRESS_MINUTE },
      },
      schema: {
        tags: ['login'],
        summary:
          'Answers the second factor of the sign-in waiting in this browser (an authenticator code, a recovery code ' +
          'or a passkey assertion); a right answer starts the session as the first step would have. Each answer ' +
          'takes a slot of the account’s sign-in lockout: a wrong one answers 401 SecondFactorWrong, the 5th wrong ' +
          'one (passwords count too) locks the account for an hour (423 AccountLocked); 400 SecondFactorStepExpired ' +
          'when no sign-in waits (start again)',
        body: FactorProofSchema,
        response: { 200: LoginResultSchema, ...errorResponses },
      },
    },
    async (req, reply) => {
      const step = await answerStep(ctx, req, reply, req.body);
      const userId = step.user_id;
      const bind = bindOf(step);
      if (bind) {
        // The third-party account the first step asked to bind, bound now that the account proved itself.
        const bound = await bindAccount(ctx, bind, userId);
        if (bound.kind === 'boundToOther') throw new AppError(409, 'ThirdPartyAccountBoundToOther');
      }
      // The factor was right (its judge cleared the count): now the sign-in succeeded and its owner hears of it.
      await ctx.events.emit({
        type: 'sign-in.succeeded',
        method: step.method,
        factor: req.body.method,
        to: { userId },
      });
      await noteSignIn(ctx, userId, req.ip, req.headers['user-agent']);
      const { csrfToken } = await openSession(ctx, req, reply, userId, {
        method: step.method,
        secondFactor: req.body.method,
      });
      const user = await ctx.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
      return signedIn(user, csrfToken);
    },
  );

  app.post(
    routePath(SECOND_STEP_PATHS.secondFactorOptions),
    {
      config: {
        auth: 'public',
        csrf: 'xhr',
        limit: { name: 'passkey-options', perAddress: PASSKEY_OPTIONS_PER_ADDRESS_MINUTE },
      },
      schema: {
        tags: ['login'],
        summary:
          'WebAuthn options to answer the waiting sign-in’s second factor with one of the account’s passkeys ' +
          '(a single-use challenge); 400 SecondFactorStepExpired when no sign-in waits in this browser',
        response: { 200: AuthenticationOptionsSchema, ...errorResponses },
      },
    },
    async (req) => {
      const step = await liveStep(ctx, req);
      if (!step) throw new AppError(400, 'SecondFactorStepExpired');
      return ctx.secondFactors.assertionOptions(step.user_id);
    },
  );

  app.post(
    routePath(SECOND_STEP_PATHS.passkeyOptions),
    {
      config: {
        auth: 'public',
        csrf: 'xhr',
        limit: { name: 'passkey-options', perAddress: PASSKEY_OPTIONS_PER_ADDRESS_MINUTE },
      },
      schema: {
        tags: ['login'],
        summary:
          'WebAuthn options for a passkey sign-in without name or password: any discoverable credential, a ' +
          'single-use challenge',
        response: { 200: AuthenticationOptionsSchema, ...errorResponses },
      },
    },
    async () => ctx.secondFactors.assertionOptions(null),
  );

  app.post(
    SECOND_STEP_PATHS.passkey,
    {
      config: {
        auth: 'public',
        csrf: 'xhr',
        limit: { name: 'passkey-sign-in', perAddress: SECOND_STEP_CALLS_PER_ADDRESS_MINUTE },
      },
      schema: {
        tags: ['login'],
        summary:
          'Signs in with a passkey (a discoverable credential: both factors at once, no name, no password). A ' +
          'refused assertion answers 401 PasskeyNotRecognised and counts against the client address (after ' +
          `${PASSKEY_FAILURES_PER_ADDRESS} in ${PASSKEY_FAILURE_WINDOW_MS / 60_000} minutes: 429); a held ` +
          'account is refused (423 AccountHeld)',
        body: PasskeySignInBodySchema,
        response: { 200: LoginResultSchema, ...errorResponses },
      },
    },
    async (req, reply) => {
      const failures = passkeyFailureKey(ctx, req.ip);
      if ((await ctx.rateLimits.peek(failures)) >= PASSKEY_FAILURES_PER_ADDRESS)
        throw new AppError(429, 'TooManyRequests');
      const userId = await ctx.secondFactors.verifyPasswordless(req.body.response);
      if (!userId) {
        await ctx.rateLimits.hit(failures, Number.MAX_SAFE_INTEGER, PASSKEY_FAILURE_WINDOW_MS);
        req.log.info('passkey sign-in refused');
        throw new AppError(401, 'PasskeyNotRecognised');
      }
      const marks = await readMarks(ctx, req);
      // The store refuses a held account (423 AccountHeld) before anything is told.
      const { csrfToken } = await openSession(ctx, req, reply, userId, {
        method: 'passkey',
        secondFactor: 'passkey',
        marks,
      });
      await ctx.events.emit({ type: 'sign-in.succeeded', method: 'passkey', to: { userId } });
      await noteSignIn(ctx, userId, req.ip, req.headers['user-agent']);
      const user = await ctx.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
      return signedIn(user, csrfToken);
    },
  );
};
