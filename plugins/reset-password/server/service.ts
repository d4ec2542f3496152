import crypto from 'node:crypto';
import type { AppContext } from '../../../server/context';
import { AppError } from '../../../server/errors';
import { passwordRuleViolation } from '../../../server/auth/passwords';
import { randomSecret, safeEqual, sha256 } from '../../../server/auth/random';
import { accountLookupLimit, addressSubject, enforceLimit } from '../../../server/http/rate-limit';
import { MailNotConfiguredError } from '../../../server/mail/index';
import { normalizeLocale, type ServerLocale } from '../../../server/i18n/index';
import { maskEmail, recoveryTarget } from '../../../server/services/accounts';
import type { Lock } from '../../../server/auth/lockout';
import { judgeFactor } from '../../../server/auth/second-factor/challenge';
import type { AuthenticationOptions, FactorProof } from '../../../schemas/second-factor';
import {
  RECOVERY_CODE_LENGTH,
  RECOVERY_CODE_MAX_TRIES,
  RECOVERY_CODE_TTL_MS,
  RECOVERY_FLOW_TTL_MS,
  RECOVERY_RESEND_MS,
  RECOVERY_TICKET_TTL_MS,
  type EmailCaptchaSent,
  type RecoveryFlow,
  type ResetTicket,
} from '../contract';

/** Code mails one client address may cause per hour (on top of one per account per minute). */
export const RECOVERY_MAILS_PER_IP_HOUR = 20;

/** Where a call comes from: the address limits count and the language a mail falls back to. */
export interface RecoveryOrigin {
  ip: string;
  locale: ServerLocale;
  log: { warn(obj: object, msg: string): void };
}

const subject = (username: string) => username.toLowerCase();
const codeDigest = (flowIdHash: string, code: string) => sha256(`${flowIdHash}:${code}`);

const MAILS: Record<ServerLocale, { codeSubject: string; code: (c: string, min: number) => string }> = {
  zh_CN: {
    codeSubject: '找回密码验证码',
    code: (c, min) =>
      `你好，\n\n你正在找回密码，验证码：${c}\n\n验证码 ${min} 分钟内有效，只能使用一次。如果这不是你本人的操作，请忽略本邮件，你的密码不会改变。`,
  },
  en_US: {
    codeSubject: 'Your password recovery code',
    code: (c, min) =>
      `Hello,\n\nYour password recovery code is: ${c}\n\nIt is valid for ${min} minutes and can be used once. If you did not ask for it, ignore this email; your password stays as it is.`,
  },
};

/** The language of mails to a user: their own setting, else the request's. */
function mailLocale(language: string | null, fallback: ServerLocale): ServerLocale {
  return normalizeLocale(language ?? undefined) ?? fallback;
}

/** A live flow of this username, or "page invalid, verify again". */
async function liveFlow(ctx: AppContext, username: string, flowId: string) {
  const row = await ctx.db
    .selectFrom('recovery_flows')
    .selectAll()
    .where('id_hash', '=', sha256(flowId))
    .where('username', '=', subject(username))
    .where('expires_at', '>', ctx.clock.now().getTime())
    .executeTakeFirst();
  if (!row) throw new AppError(400, 'RecoveryPageInvalid');
  return row;
}

/**
 * Opens a recovery with a slider pass solved for this username (spent here, once): the account must exist and
 * have a verified e-mail. The flow id goes back to the page; only its digest is kept.
 */
export async function startRecovery(
  ctx: AppContext,
  username: string,
  pass: string,
  origin: RecoveryOrigin,
): Promise<RecoveryFlow> {
  // It tells whether an account exists, like the check: the same per-address budget.
  await enforceLimit(ctx, accountLookupLimit(ctx, origin.ip));
  if (!(await ctx.captcha.spend(username, pass))) throw new AppError(403, 'CaptchaInvalid');
  const target = await recoveryTarget(ctx.db, username);
  if (target.kind === 'notFound') throw new AppError(404, 'AccountNotExist');
  if (target.kind === 'noEmail') throw new AppError(400, 'AccountNoEmail');
  const now = ctx.clock.now().getTime();
  const flow = randomSecret(24);
  const expiresAt = now + RECOVERY_FLOW_TTL_MS;
  await ctx.db
    .insertInto('recovery_flows')
    .values({
      id_hash: sha256(flow),
      user_id: target.user.id,
      username: subject(username),
      created_at: now,
      expires_at: expiresAt,
      code_hash: null,
      code_expires_at: null,
      code_tries: 0,
      ticket_hash: null,
      ticket_expires_at: null,
    })
    .execute();
  return { flow, email: maskEmail(target.email), expires_at: expiresAt };
}

/**
 * Mails a new 6-digit code to the account's verified e-mail (an earlier code of the flow stops working).
 * One mail per account per minute, counted in the database; a failed send gives the minute back.
 */
export async function sendCode(
  ctx: AppContext,
  username: string,
  flowId: string,
  origin: RecoveryOrigin,
): Promise<EmailCaptchaSent> {
  const flow = await liveFlow(ctx, username, flowId);
  if (ctx.mailer.kind === 'none') throw new AppError(400, 'MailServiceNotConfigured');
  const target = await recoveryTarget(ctx.db, username);
  if (target.kind !== 'ok' || target.user.id !== flow.user_id) throw new AppError(400, 'AccountNoEmail');
  // The account's minute first: a burst for one account must not spend the address's hourly budget.
  const throttleKey = `recovery-mail:user:${flow.user_id}`;
  await enforceLimit(ctx, { key: throttleKey, limit: 1, windowMs: RECOVERY_RESEND_MS }, 'RecoveryMailTooFrequent');
  await enforceLimit(
    ctx,
    {
      key: `recovery-mail:ip:${addressSubject(ctx, origin.ip)}`,
      limit: RECOVERY_MAILS_PER_IP_HOUR,
      windowMs: 3_600_000,
    },
    'TooManyRequests',
  );
  const now = ctx.clock.now().getTime();
  const code = String(crypto.randomInt(0, 10 ** RECOVERY_CODE_LENGTH)).padStart(RECOVERY_CODE_LENGTH, '0');
  const codeExpiresAt = now + RECOVERY_CODE_TTL_MS;
  await ctx.db
    .updateTable('recovery_flows')
    .set({ code_hash: codeDigest(flow.id_hash, code), code_expires_at: codeExpiresAt, code_tries: 0 })
    .where('id_hash', '=', flow.id_hash)
    .execute();
  const text = MAILS[mailLocale(target.user.language, origin.locale)];
  try {
    await ctx.mailer.send({
      to: target.email,
      subject: text.codeSubject,
      text: text.code(code, RECOVERY_CODE_TTL_MS / 60_000),
    });
  } catch (err) {
    origin.log.warn({ err: (err as Error).message, to: target.email }, 'recovery code mail failed');
    await ctx.rateLimits.reset(throttleKey);
    await ctx.db
      .updateTable('recovery_flows')
      .set({ code_hash: null, code_expires_at: null })
      .where('id_hash', '=', flow.id_hash)
      .execute();
    if (err instanceof MailNotConfiguredError) throw new AppError(400, 'MailServiceNotConfigured');
    throw new AppError(502, 'RecoveryMailFailed');
  }
  return {
    email: maskEmail(target.email),
    code_expires_at: codeExpiresAt,
    resend_available_at: now + RECOVERY_RESEND_MS,
  };
}

/**
 * Checks a mailed code. The try is counted atomically before comparing (parallel guesses get at most 5
 * comparisons per code); a right code is spent and earns the one reset ticket; the 5th wrong one ends the code.
 */
export async function verifyCode(
  ctx: AppContext,
  username: string,
  flowId: string,
  code: string,
): Promise<ResetTicket> {
  const flow = await liveFlow(ctx, username, flowId);
  const now = ctx.clock.now().getTime();
  const row = await ctx.db
    .updateTable('recovery_flows')
    .set((eb) => ({ code_tries: eb('code_tries', '+', 1) }))
    .where('id_hash', '=', flow.id_hash)
    .where('code_hash', 'is not', null)
    .where('code_expires_at', '>', now)
    .where('code_tries', '<', RECOVERY_CODE_MAX_TRIES)
    .returning(['code_hash', 'code_tries'])
    .executeTakeFirst();
  if (!row?.code_hash) throw new AppError(400, 'VerificationCodeExhausted');
  if (!safeEqual(row.code_hash, codeDigest(flow.id_hash, code))) {
    const remaining = RECOVERY_CODE_MAX_TRIES - Number(row.code_tries);
    if (remaining > 0) throw new AppError(400, 'VerificationCodeIncorrect', { remaining });
    await ctx.db
      .updateTable('recovery_flows')
      .set({ code_hash: null, code_expires_at: null })
      .where('id_hash', '=', flow.id_hash)
      .where('code_hash', '=', row.code_hash)
      .execute();
    throw new AppError(400, 'VerificationCodeExhausted');
  }
  const ticket = randomSecret(24);
  const expiresAt = now + RECOVERY_TICKET_TTL_MS;
  const spent = await ctx.db
    .updateTable('recovery_flows')
    .set({ code_hash: null, code_expires_at: null, ticket_hash: sha256(ticket), ticket_expires_at: expiresAt })
    .where('id_hash', '=', flow.id_hash)
    .where('code_hash', '=', row.code_hash)
    .executeTakeFirst();
  if (Number(spent.numUpdatedRows) !== 1) throw new AppError(400, 'VerificationCodeExhausted');
  // A mailbox alone does not hand back an account with a second factor: the reset will ask for it too.
  if (!(await ctx.secondFactors.hasFactor(flow.user_id))) return { ticket, expires_at: expiresAt };
  const methods = await ctx.secondFactors.methodsOf(flow.user_id);
  return { ticket, expires_at: expiresAt, second_factor: { methods, expires_at: expiresAt } };
}

/** The recovery a reset ticket belongs to while it can still be used (not spent, not expired), or null. */
async function ticketFlow(ctx: AppContext, username: string, ticket: string) {
  const now = ctx.clock.now().getTime();
  const row = await ctx.db
    .selectFrom('recovery_flows')
    .select(['user_id', 'username'])
    .where('ticket_hash', '=', sha256(ticket))
    .where('username', '=', subject(username))
    .where('ticket_expires_at', '>', now)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row ?? null;
}

/**
 * WebAuthn options to answer the recovery's second factor with one of the account's passkeys (a single-use
 * challenge for that account): the reset ticket names the account. 400 RecoveryPageInvalid without a live ticket.
 */
export async function recoveryFactorOptions(
  ctx: AppContext,
  username: string,
  ticket: string,
): Promise<AuthenticationOptions> {
  const flow = await ticketFlow(ctx, username, ticket);
  if (!flow) throw new AppError(400, 'RecoveryPageInvalid');
  return ctx.secondFactors.assertionOptions(flow.user_id);
}

/** The second factor a reset brings, and where from (the lockout counts it in that browser's lock). */
export interface ResetFactor {
  proof?: FactorProof;
  /** The lock the browser counts in (`marked` when it carries the account's device mark). */
  lock: (userId: string) => Promise<Lock>;
  /** The client address (a lock message names it). */
  ip: string;
}

/**
 * The second factor of an account that has one, before its password may be reset (ASVS 6.4.3: a reset does not
 * bypass an enabled factor): none given answers 400 SecondFactorRequired; the answer is judged by `judgeFactor`
 * (purpose `recovery`), a slot of the account's sign-in lockout each, so guesses here and at the sign-in share the
 * count of 5. Wrong: 401 RecoveryFactorWrong; locked: 423 RecoveryAccountLocked. Nothing changes until it is right.
 */
async function requireFactor(ctx: AppContext, flow: { user_id: string; username: string }, factor: ResetFactor) {
  if (!(await ctx.secondFactors.hasFactor(flow.user_id))) return;
  if (!factor.proof) throw new AppError(400, 'SecondFactorRequired');
  const verdict = await judgeFactor(ctx, {
    userId: flow.user_id,
    username: flow.username,
    lock: await factor.lock(flow.user_id),
    proof: factor.proof,
    purpose: 'recovery',
    address: factor.ip,
  });
  if (verdict === 'locked') throw new AppError(423, 'RecoveryAccountLocked');
  if (verdict !== 'ok') throw new AppError(401, 'RecoveryFactorWrong');
}

/**
 * Sets the new password with the ticket, in one transaction: the ticket is spent, the password replaced,
 * every session and every recovery of the account ended. Then the lock is cleared and the change told (an event).
 * An account with a second factor answers it first (`factor`, see `requireFactor`); until it is right the ticket
 * stays and nothing changes.
 */
export async function resetPassword(
  ctx: AppContext,
  username: string,
  ticket: string,
  newPassword: string,
  factor: ResetFactor,
): Promise<void> {
  const violation = passwordRuleViolation(newPassword);
  if (violation) throw new AppError(400, violation);
  const live = await ticketFlow(ctx, username, ticket);
  if (!live) throw new AppError(400, 'RecoveryPageInvalid');
  await requireFactor(ctx, live, factor);
  const hash = await ctx.hasher.hash(newPassword);
  const now = ctx.clock.now().getTime();
  const userId = await ctx.db.transaction().execute(async (trx) => {
    const flow = await trx
      .updateTable('recovery_flows')
      .set({ ticket_hash: null, ticket_expires_at: null })
      .where('ticket_hash', '=', sha256(ticket))
      .where('username', '=', subject(username))
      .where('ticket_expires_at', '>', now)
      .where('expires_at', '>', now)
      .returning('user_id')
      .executeTakeFirst();
    if (!flow) throw new AppError(400, 'RecoveryPageInvalid');
    // Its owner held it ("this wasn't me"): a mailbox an intruder may read must not hand the account back.
    const held = await trx.selectFrom('users').select('held_at').where('id', '=', flow.user_id).executeTakeFirst();
    if (held?.held_at != null) throw new AppError(423, 'AccountHeld');
    await trx
      .updateTable('users')
      .set({ password_hash: hash, must_change_password: 0, updated_at: now })
      .where('id', '=', flow.user_id)
      .execute();
    await trx.deleteFrom('sessions').where('user_id', '=', flow.user_id).execute();
    await trx.deleteFrom('recovery_flows').where('user_id', '=', flow.user_id).execute();
    return flow.user_id;
  });
  await ctx.lockout.unlock(username);
  // The notice mail (in the account's language, else this request's; no link) is the security slice's, as for every
  // password change: it hears of this event.
  await ctx.events.emit({ type: 'password.changed', how: 'recovery', to: { userId } });
}

/** Removes recoveries past their time; housekeeping. */
export async function purgeRecoveries(ctx: AppContext): Promise<void> {
  await ctx.db.deleteFrom('recovery_flows').where('expires_at', '<=', ctx.clock.now().getTime()).execute();
}
