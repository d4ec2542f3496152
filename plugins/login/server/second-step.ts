import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../../server/context';
import type { Lock } from '../../../server/auth/lockout';
import { randomSecret, sha256 } from '../../../server/auth/random';
import { keptUserAgent } from '../../../server/auth/user-agent';
import { AppError } from '../../../server/errors';
import { judgeFactor } from '../../../server/auth/second-factor/challenge';
import { SECOND_FACTOR_STEP_MINUTES, type FactorChallenge, type FactorProof } from '../../../schemas/second-factor';
import type { OAuthProvider } from '../../../schemas/sign-in';
import type { PendingBind } from '../contract';
import type { SignInStepsTable } from './tables';

/**
 * The second step of a sign-in (issue 41). A first step that passed (password, directory password, third-party
 * sign-in) for an account with a second factor makes no session: it stores a waiting sign-in, named by a random
 * ticket in an httpOnly cookie (only its digest is kept), for `SECOND_FACTOR_STEP_MINUTES`. The factor's answers are
 * judged by the core's `judgeFactor`, each taking a slot of the account's sign-in lockout (the one the first step
 * counted in), so wrong codes and wrong passwords share the count and 5 lock the account for an hour; the waiting
 * sign-in is spent by the answer that ends it, once.
 */

/** The waiting sign-in's cookie on http. */
export const STEP_COOKIE = 'account_sign_in_step';
/** The waiting sign-in's cookie on https (`__Host-`: Secure, Path=/, no Domain). */
export const SECURE_STEP_COOKIE = '__Host-account_sign_in_step';
/** How long a sign-in waits for its second factor (ms). */
export const STEP_TTL_MS = SECOND_FACTOR_STEP_MINUTES * 60_000;
/** A cookie value longer than this names nothing (tickets are 43 characters). */
const TICKET_MAX = 100;

/** The waiting sign-in's cookie name for a service served over https (`secure`) or not. */
export function stepCookieName(secure: boolean): string {
  return secure ? SECURE_STEP_COOKIE : STEP_COOKIE;
}

/** The cookie's options: the whole site (the sign-in page's first render reads it too), httpOnly, SameSite=Lax. */
function stepCookieOptions(ctx: Pick<AppContext, 'secureCookies'>) {
  return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: ctx.secureCookies };
}

/** What a first step hands to the second. */
export interface StepStart {
  userId: string;
  /** How the first step signed in (`password`, `ldap`, `ad`, a provider): the session and the history say it. */
  method: string;
  /** The lockout counter (name) and lock the first step counted in; the factor's answers count there. */
  lockKey: string;
  lock: Lock;
  /** Where a third-party sign-in goes afterwards (already validated). */
  next?: string | null;
  /** A third-party account to bind to the account once the factor is right. */
  bind?: PendingBind | null;
}

/**
 * Starts the second step: the waiting sign-in is stored (one per browser: the browser's earlier one ends) and its
 * cookie set. A held account ("this wasn't me") is refused here already (423 AccountHeld), as it would be at the end.
 * Answers the challenge: the methods the account can answer with and when the wait ends.
 */
export async function startStep(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  start: StepStart,
): Promise<FactorChallenge> {
  const user = await ctx.db.selectFrom('users').select('held_at').where('id', '=', start.userId).executeTakeFirst();
  if (user?.held_at != null) throw new AppError(423, 'AccountHeld');
  const previous = req.cookies?.[stepCookieName(ctx.secureCookies)];
  if (previous && previous.length <= TICKET_MAX)
    await ctx.db.deleteFrom('sign_in_steps').where('ticket_hash', '=', sha256(previous)).execute();
  const now = ctx.clock.now().getTime();
  const ticket = randomSecret(32);
  const expiresAt = now + STEP_TTL_MS;
  await ctx.db
    .insertInto('sign_in_steps')
    .values({
      ticket_hash: sha256(ticket),
      user_id: start.userId,
      method: start.method.slice(0, 32),
      lock_key: start.lockKey.slice(0, 256),
      lock: start.lock,
      address: req.ip.slice(0, 64),
      user_agent: keptUserAgent(req.headers['user-agent']),
      next_url: start.next ?? null,
      bind_provider: start.bind?.provider ?? null,
      bind_open_id: start.bind?.open_id ?? null,
      bind_name: start.bind?.name ?? null,
      created_at: now,
      expires_at: expiresAt,
    })
    .execute();
  reply.setCookie(stepCookieName(ctx.secureCookies), ticket, {
    ...stepCookieOptions(ctx),
    maxAge: Math.floor(STEP_TTL_MS / 1000),
  });
  return { methods: await ctx.secondFactors.methodsOf(start.userId), expires_at: expiresAt };
}

/** The waiting sign-in this browser's cookie names, when it is still live; else null. */
export async function liveStep(ctx: AppContext, req: FastifyRequest): Promise<SignInStepsTable | null> {
  const ticket = req.cookies?.[stepCookieName(ctx.secureCookies)];
  if (!ticket || ticket.length > TICKET_MAX) return null;
  const row = await ctx.db
    .selectFrom('sign_in_steps')
    .selectAll()
    .where('ticket_hash', '=', sha256(ticket))
    .where('expires_at', '>', ctx.clock.now().getTime())
    .executeTakeFirst();
  return row ?? null;
}

/** The challenge of this browser's waiting sign-in (the sign-in page's first render shows it), or null. */
export async function stepChallenge(ctx: AppContext, req: FastifyRequest): Promise<FactorChallenge | null> {
  const step = await liveStep(ctx, req);
  if (!step) return null;
  return { methods: await ctx.secondFactors.methodsOf(step.user_id), expires_at: Number(step.expires_at) };
}

/** Ends this browser's waiting sign-in (if any) and clears its cookie. */
export async function clearStep(ctx: AppContext, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  const ticket = req.cookies?.[stepCookieName(ctx.secureCookies)];
  if (ticket === undefined) return;
  if (ticket.length <= TICKET_MAX)
    await ctx.db.deleteFrom('sign_in_steps').where('ticket_hash', '=', sha256(ticket)).execute();
  reply.clearCookie(stepCookieName(ctx.secureCookies), stepCookieOptions(ctx));
}

/** The third-party account a waiting sign-in carries to bind, or null. */
export function bindOf(step: SignInStepsTable): PendingBind | null {
  if (!step.bind_provider || step.bind_open_id === null) return null;
  return { provider: step.bind_provider as OAuthProvider, open_id: step.bind_open_id, name: step.bind_name ?? '' };
}

/**
 * Judges one answer to this browser's waiting sign-in (`judgeFactor`: a lockout slot per answer, taken before it is
 * evaluated; a right one clears the count). A right one spends the waiting sign-in (once: of parallel right answers
 * one ends it) and answers it; the caller then starts the session. A wrong one answers 401 SecondFactorWrong and the wait
 * goes on; the locking one (and any while locked) 423 AccountLocked, and the waiting sign-in ends. Without a live
 * waiting sign-in: 400 SecondFactorStepExpired, nothing judged.
 */
export async function answerStep(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  proof: FactorProof,
): Promise<SignInStepsTable> {
  const step = await liveStep(ctx, req);
  if (!step) {
    await clearStep(ctx, req, reply);
    throw new AppError(400, 'SecondFactorStepExpired');
  }
  // The lockout counter the first step counted in (the name as typed, a directory's login), so passwords and
  // factor answers share one count.
  const verdict = await judgeFactor(ctx, {
    userId: step.user_id,
    username: step.lock_key,
    lock: step.lock === 'marked' ? 'marked' : 'unmarked',
    proof,
    purpose: 'sign-in',
    address: req.ip,
  });
  if (verdict === 'locked') {
    await clearStep(ctx, req, reply);
    throw new AppError(423, 'AccountLocked');
  }
  if (verdict !== 'ok') throw new AppError(401, 'SecondFactorWrong');
  const spent = await ctx.db
    .deleteFrom('sign_in_steps')
    .where('ticket_hash', '=', step.ticket_hash)
    .where('expires_at', '>', ctx.clock.now().getTime())
    .returning('ticket_hash')
    .executeTakeFirst();
  reply.clearCookie(stepCookieName(ctx.secureCookies), stepCookieOptions(ctx));
  if (!spent) throw new AppError(400, 'SecondFactorStepExpired');
  return step;
}

/** Removes waiting sign-ins past their time (housekeeping). */
export async function purgeSteps(ctx: AppContext): Promise<void> {
  await ctx.db.deleteFrom('sign_in_steps').where('expires_at', '<=', ctx.clock.now().getTime()).execute();
}
