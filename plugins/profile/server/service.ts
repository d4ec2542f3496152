import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { sql } from 'kysely';
import type { AppContext, SessionUser } from '../../../server/context';
import { AppError } from '../../../server/errors';
import { DEFAULT_AVATAR_STORAGE_BYTES } from '../../../server/config';
import { cleanText } from '../../../server/clean-text';
import { MailNotConfiguredError } from '../../../server/mail/index';
import { randomSecret, sha256 } from '../../../server/auth/random';
import { sessionUserColumns } from '../../../server/auth/sessions';
import { LOCK_AT_FAILURES, LOCK_DURATION_MS } from '../../../server/auth/lockout';
import { maskEmail } from '../../../server/services/accounts';
import type { ServerLocale } from '../../../server/i18n/index';
import type { EmailCodes } from '../../../server/auth/email-codes';
import { EMAIL_CODE_LENGTH, type EmailCodePurpose } from '../../../schemas/email-code';
import { DEFAULT_COLOR_SCHEME, isColorScheme, type ColorScheme } from '../../../schemas/color-scheme';
import {
  AVATAR_CONTENT_TYPES,
  AVATAR_MAX_BYTES,
  AVATAR_MAX_PIXELS,
  AVATAR_PENDING_TTL_MS,
  EMAIL_CODE_TTL_MS,
  EMAIL_RESEND_INTERVAL_MS,
  EMAIL_TOKEN_TTL_MS,
  sniffImageKind,
  type AvatarKind,
  type AvatarUploadAnswer,
  type BindAttributes,
  type EmailCodeAnswer,
  type EmailState,
  type MeUpdateBody,
  type ProfileLanguage,
} from '../contract';

/** Same local@domain rule as the page's form (core validation), checked again here. */
const EMAIL_RE =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

/** The path an avatar stored by this service is served at; the only avatar value accepted besides "default". */
export const AVATAR_PATH_RE = /^\/objects\/avatars\/([0-9a-f]{32}\.(?:png|jpg|gif))$/;

/** Largest width/height an avatar is stored at (bigger images are scaled down). */
const AVATAR_MAX_SIDE = 1024;

/** Where avatar files live. */
export function avatarDir(ctx: AppContext): string {
  return path.join(ctx.config.dataDir, 'avatars');
}

async function loadUser(ctx: AppContext, userId: string): Promise<SessionUser> {
  return (await ctx.db
    .selectFrom('users')
    .select([...sessionUserColumns])
    .where('users.id', '=', userId)
    .executeTakeFirstOrThrow()) as SessionUser;
}

/** Reads the signed-in user again after a change (the session copy was loaded before it). */
export function freshUser(ctx: AppContext, userId: string): Promise<SessionUser> {
  return loadUser(ctx, userId);
}

// ——— account fields and language ———

/** Changes the display name and/or language of the signed-in user. */
export async function updateMe(ctx: AppContext, userId: string, patch: MeUpdateBody): Promise<SessionUser> {
  if (patch.name !== undefined) {
    const trimmed = patch.name.trim();
    if (!trimmed) throw new AppError(400, 'InvalidParameter', { detail: 'name' });
    const name = cleanText(trimmed, { en_US: 'display name', zh_CN: '显示名称' });
    await ctx.db
      .updateTable('users')
      .set({ name, updated_at: ctx.clock.now().getTime() })
      .where('id', '=', userId)
      .execute();
  }
  if (patch.language) await setLanguage(ctx, userId, patch.language);
  return loadUser(ctx, userId);
}

/** The user's saved language, or null when never chosen. */
export async function getLanguage(ctx: AppContext, userId: string): Promise<ProfileLanguage | null> {
  const row = await ctx.db
    .selectFrom('preferences')
    .select('value')
    .where('user_id', '=', userId)
    .where('key', '=', 'language')
    .executeTakeFirst();
  const v = row?.value;
  return v === 'zh_CN' || v === 'en_US' ? v : null;
}

/** Persists the language as a preference and on the account (what `me` reports). */
export async function setLanguage(ctx: AppContext, userId: string, language: ProfileLanguage): Promise<void> {
  await ctx.db
    .insertInto('preferences')
    .values({ user_id: userId, key: 'language', value: language })
    .onConflict((oc) => oc.columns(['user_id', 'key']).doUpdateSet({ value: language }))
    .execute();
  await ctx.db
    .updateTable('users')
    .set({ language, updated_at: ctx.clock.now().getTime() })
    .where('id', '=', userId)
    .execute();
}

// ——— appearance ———

/** The account's colour scheme (`system` until chosen): what its pages are painted in. */
export async function getColorScheme(ctx: AppContext, userId: string): Promise<ColorScheme> {
  const row = await ctx.db
    .selectFrom('users')
    .select('color_scheme')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return isColorScheme(row.color_scheme) ? row.color_scheme : DEFAULT_COLOR_SCHEME;
}

/** Keeps the colour scheme on the account (what `me` and the page's bootstrap report); the caller checked the value. */
export async function setColorScheme(ctx: AppContext, userId: string, colorScheme: ColorScheme): Promise<void> {
  await ctx.db
    .updateTable('users')
    .set({ color_scheme: colorScheme, updated_at: ctx.clock.now().getTime() })
    .where('id', '=', userId)
    .execute();
}

/** The directory an account signs in through (its password proves e-mail changes), or null. */
async function directoryOf(ctx: AppContext, userId: string): Promise<string | null> {
  return ctx.directoryPasswords ? ((await ctx.directoryPasswords.sourceOf(userId))?.name ?? null) : null;
}

/** What the account has bound, so the page knows whether to ask for the old password (or the directory's). */
export async function bindAttributes(ctx: AppContext, userId: string): Promise<BindAttributes> {
  const [row, directory] = await Promise.all([
    ctx.db
      .selectFrom('users')
      .select(['password_hash', 'email', 'email_verified'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow(),
    directoryOf(ctx, userId),
  ]);
  return {
    has_password: !!row.password_hash,
    directory,
    email: row.email,
    email_verified: row.email_verified === 1,
  };
}

// ——— e-mail ———

const MAIL_TEXT: Record<ServerLocale, { subject: string; body: (link: string) => string }> = {
  zh_CN: {
    subject: '请激活你的通知邮箱',
    body: (link) =>
      `你好，\n\n请在 24 小时内打开以下链接，激活你的通知邮箱：\n${link}\n\n如果这不是你本人的操作，请忽略本邮件。`,
  },
  en_US: {
    subject: 'Activate your notification email',
    body: (link) =>
      `Hello,\n\nOpen this link within 24 hours to activate your notification email:\n${link}\n\nIf you did not ask for this, ignore this email.`,
  },
};

async function stateOf(ctx: AppContext, userId: string): Promise<EmailState> {
  const [user, throttle] = await Promise.all([
    ctx.db.selectFrom('users').select(['email', 'email_verified']).where('id', '=', userId).executeTakeFirstOrThrow(),
    ctx.db.selectFrom('email_send_throttle').select('last_sent_at').where('user_id', '=', userId).executeTakeFirst(),
  ]);
  const now = ctx.clock.now().getTime();
  const next = throttle ? throttle.last_sent_at + EMAIL_RESEND_INTERVAL_MS : null;
  return {
    email: user.email,
    email_verified: user.email_verified === 1,
    resend_available_at: user.email && user.email_verified !== 1 && next && next > now ? next : null,
    server_time: now,
  };
}

/** True when another account already verified this address (compared case-insensitively). */
async function verifiedElsewhere(ctx: AppContext, userId: string, email: string): Promise<boolean> {
  const row = await ctx.db
    .selectFrom('users')
    .select('id')
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .where('email_verified', '=', 1)
    .where('id', '!=', userId)
    .executeTakeFirst();
  return !!row;
}

/**
 * Takes the user's one-mail-per-minute slot with a single conditional UPDATE, so N parallel
 * requests (on any instance) let exactly one through.
 */
async function claimSendSlot(ctx: AppContext, userId: string, now: number): Promise<boolean> {
  await ctx.db
    .insertInto('email_send_throttle')
    .values({ user_id: userId, last_sent_at: 0 })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
  const r = await ctx.db
    .updateTable('email_send_throttle')
    .set({ last_sent_at: now })
    .where('user_id', '=', userId)
    .where('last_sent_at', '<=', now - EMAIL_RESEND_INTERVAL_MS)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Gives the slot back when the mail could not be sent, so the user may retry at once. */
async function releaseSendSlot(ctx: AppContext, userId: string, claimedAt: number): Promise<void> {
  await ctx.db
    .updateTable('email_send_throttle')
    .set({ last_sent_at: claimedAt - EMAIL_RESEND_INTERVAL_MS })
    .where('user_id', '=', userId)
    .where('last_sent_at', '=', claimedAt)
    .execute();
}

/** Where the request came from, for the activation link. */
export interface MailOrigin {
  /** PUBLIC_URL, else the request's own origin. */
  baseUrl: string;
  locale: ServerLocale;
  /** The client address (the account-locked message names it). */
  ip: string;
  /** The request's logger, for send failures (recipient only, never the link). */
  log: { warn(obj: object, msg: string): void };
}

/**
 * What an e-mail change carries besides the session's recent proof (re-authentication): for an account without a
 * password of its own or its directory's, the code mailed to its current address.
 */
export interface EmailProof {
  code?: string;
}

/** The account as an e-mail change judges it. */
interface ChangingUser {
  username: string;
  password_hash: string | null;
  email: string | null;
  email_verified: number;
}

/** The code mail, by what the code proves: its reader must know what they are allowing before giving it to anyone. */
const CODE_TEXT: Record<EmailCodePurpose, Record<ServerLocale, { subject: string; body: (code: string) => string }>> = {
  email: {
    zh_CN: {
      subject: '修改邮箱的验证码',
      body: (code) =>
        `你好，\n\n你正在修改账号的通知邮箱，验证码为：${code}\n10 分钟内有效。\n\n如果这不是你本人的操作，请不要把验证码告诉任何人，并联系管理员。`,
    },
    en_US: {
      subject: 'Your code to change the email',
      body: (code) =>
        `Hello,\n\nYou are changing the notification email of your account. Your code is: ${code}\nIt is valid for 10 minutes.\n\nIf this was not you, give the code to nobody and contact your administrator.`,
    },
  },
  password: {
    zh_CN: {
      subject: '设置密码的验证码',
      body: (code) =>
        `你好，\n\n你正在为账号设置登录密码，验证码为：${code}\n10 分钟内有效。\n\n如果这不是你本人的操作，请不要把验证码告诉任何人，并联系管理员。`,
    },
    en_US: {
      subject: 'Your code to set a password',
      body: (code) =>
        `Hello,\n\nYou are setting a password for your account. Your code is: ${code}\nIt is valid for 10 minutes.\n\nIf this was not you, give the code to nobody and contact your administrator.`,
    },
  },
};

const NOTICE_TEXT: Record<ServerLocale, { subject: string; body: (to: string | null) => string }> = {
  zh_CN: {
    subject: '你的账号邮箱已变更',
    body: (to) =>
      `你好，\n\n你账号的通知邮箱${to ? `已修改为 ${to}` : '已解绑'}，此地址将不再接收通知邮件。\n\n如果这不是你本人的操作，请立即修改密码并联系管理员。`,
  },
  en_US: {
    subject: 'The email of your account was changed',
    body: (to) =>
      `Hello,\n\nThe notification email of your account ${to ? `was changed to ${to}` : 'was removed'}; this address no longer receives notification emails.\n\nIf this was not you, change your password at once and contact your administrator.`,
  },
};

/**
 * The mailbox proof of an e-mail change by an account without a password of its own or its directory's: the code
 * mailed to its current address (`emails:code`), judged under the account's sign-in lockout as the password change
 * does: the attempt takes a slot before the code is evaluated, a wrong one keeps it, the 5th locks the account (sign-in
 * included) for an hour and tells the owner, a right one clears the count; while locked nothing is evaluated (423).
 * Who is asking is proved by re-authentication (the routes' `reauth`: the password, the directory's password, or a
 * round trip to the provider, within the last minutes); an account with a password or a directory has nothing more
 * to give, one without an address nothing to give. Counted in the sign-in lock of browsers without the account's
 * device mark (the profile slice does not read the login slice's marks).
 */
async function proveChange(
  ctx: AppContext,
  userId: string,
  user: ChangingUser,
  proof: EmailProof,
  origin: Pick<MailOrigin, 'ip' | 'log'>,
) {
  if (user.password_hash || !user.email) return;
  if (ctx.directoryPasswords && (await ctx.directoryPasswords.sourceOf(userId))) return;
  if (!proof.code) throw new AppError(400, 'ProfileEmailCodeRequired');
  const code = proof.code;
  const slot = await ctx.lockout.reserve(user.username, true);
  if (slot.kind !== 'granted') throw new AppError(423, 'ProfileAccountLocked');
  // A code proves one change: a right one is spent by the check.
  if (!(await takeEmailCode(ctx, userId, 'email', code))) {
    if (slot.slot < LOCK_AT_FAILURES) throw new AppError(400, 'ProfileEmailCodeIncorrect');
    const until = ctx.clock.now().getTime() + LOCK_DURATION_MS;
    await ctx.events.emit({ type: 'account.locked', until, address: origin.ip, lock: 'unmarked', to: { userId } });
    throw new AppError(423, 'ProfileAccountLocked');
  }
  await ctx.lockout.succeeded(user.username);
}

/** Tells the address that was bound that it no longer is, naming the new one masked; no link to follow. */
async function noticeToOldAddress(ctx: AppContext, old: string, next: string | null, origin: MailOrigin) {
  const text = NOTICE_TEXT[origin.locale];
  try {
    await ctx.mailer.send({ to: old, subject: text.subject, text: text.body(next ? maskEmail(next) : null) });
  } catch (err) {
    origin.log.warn({ err: (err as Error).message, to: old }, 'e-mail change notice failed');
  }
}

/**
 * Spends the account's code when `code` is the one mailed for `purpose` to the address it still has, unexpired: one
 * DELETE decides, so of parallel requests with the right code exactly one gets true. A wrong code spends nothing.
 */
export async function takeEmailCode(
  ctx: AppContext,
  userId: string,
  purpose: EmailCodePurpose,
  code: string,
): Promise<boolean> {
  const [row, user] = await Promise.all([
    ctx.db.selectFrom('email_change_codes').selectAll().where('user_id', '=', userId).executeTakeFirst(),
    ctx.db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst(),
  ]);
  const digest = sha256(code);
  const right =
    !!row &&
    !!user?.email &&
    row.purpose === purpose &&
    row.expires_at > ctx.clock.now().getTime() &&
    row.email.toLowerCase() === user.email.toLowerCase() &&
    crypto.timingSafeEqual(Buffer.from(row.code_hash), Buffer.from(digest));
  if (!right) return false;
  const spent = await ctx.db
    .deleteFrom('email_change_codes')
    .where('user_id', '=', userId)
    .where('code_hash', '=', digest)
    .executeTakeFirst();
  return Number(spent.numDeletedRows) === 1;
}

/** `ctx.emailCodes`: the codes this slice mails, for another slice to take (the login slice's first password). */
export function emailCodes(ctx: AppContext): EmailCodes {
  return { take: (userId, purpose, code) => takeEmailCode(ctx, userId, purpose, code) };
}

/**
 * Mails a code to the account's current address, for an account without a password to prove an e-mail change
 * (`purpose` 'email') or its first password ('password') with: one a minute whatever the purpose; a new code
 * replaces the last; 10 minutes valid; the mail says what the code allows.
 */
export async function sendEmailChangeCode(
  ctx: AppContext,
  userId: string,
  origin: MailOrigin,
  purpose: EmailCodePurpose = 'email',
): Promise<EmailCodeAnswer> {
  const user = await ctx.db
    .selectFrom('users')
    .select(['email', 'password_hash'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  // An account with a password (its own or its directory's) proves with it, a change of address and a first password
  // alike; one without an address has nowhere to get a code.
  if (user.password_hash || !user.email || (await directoryOf(ctx, userId))) {
    throw new AppError(400, 'ProfileEmailBindingStatusWrong');
  }
  const key = `email-change-code:user:${userId}`;
  const hit = await ctx.rateLimits.hit(key, 1, EMAIL_RESEND_INTERVAL_MS);
  if (!hit.allowed) throw new AppError(429, 'ProfileEmailTooFrequent');
  const now = ctx.clock.now().getTime();
  const code = crypto
    .randomInt(0, 10 ** EMAIL_CODE_LENGTH)
    .toString()
    .padStart(EMAIL_CODE_LENGTH, '0');
  const row = { code_hash: sha256(code), email: user.email, expires_at: now + EMAIL_CODE_TTL_MS, purpose };
  await ctx.db
    .insertInto('email_change_codes')
    .values({ user_id: userId, ...row })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(row))
    .execute();
  const text = CODE_TEXT[purpose][origin.locale];
  try {
    await ctx.mailer.send({ to: user.email, subject: text.subject, text: text.body(code) });
  } catch (err) {
    origin.log.warn({ err: (err as Error).message, to: user.email }, 'e-mail change code failed');
    await ctx.rateLimits.reset(key);
    if (err instanceof MailNotConfiguredError) throw new AppError(400, 'MailServiceNotConfigured');
    throw new AppError(502, 'ProfileEmailSendFailed');
  }
  return { sent_to: maskEmail(user.email), resend_available_at: hit.resetAt, server_time: now };
}

/**
 * Binds (mode 'bind': no address yet) or changes (mode 'rebind': one is bound) the notification
 * address, or resends the activation mail when the same unverified address is given again.
 * A change needs its proof first (`proveChange`), then the user's one-mail-a-minute slot, and only then is the
 * address compared with other accounts', so every probe of an address costs a proof and a slot, and the answer
 * is the same whichever address it is. The address that was bound is told, with the new one masked.
 * Sends a mail with a fresh single-use 24 h token; earlier unused tokens of the user stop working.
 */
export async function bindEmail(
  ctx: AppContext,
  userId: string,
  rawEmail: string,
  mode: 'bind' | 'rebind',
  origin: MailOrigin,
  proof: EmailProof = {},
): Promise<EmailState> {
  const email = rawEmail.trim();
  if (!EMAIL_RE.test(email) || email.length > 254) throw new AppError(400, 'ProfileEmailInvalid');
  const user = await ctx.db
    .selectFrom('users')
    .select(['username', 'password_hash', 'email', 'email_verified'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const same = !!user.email && user.email.toLowerCase() === email.toLowerCase();
  if (same && user.email_verified === 1) throw new AppError(409, 'ProfileEmailAlreadyBound');
  if (mode === 'bind' && user.email && !same) throw new AppError(400, 'ProfileEmailBindingStatusWrong');
  if (mode === 'rebind' && !user.email) throw new AppError(400, 'ProfileEmailBindingStatusWrong');
  // A resend to the same unverified address changes nothing and needs no proof.
  if (!same) await proveChange(ctx, userId, user, proof, origin);

  const now = ctx.clock.now().getTime();
  if (!(await claimSendSlot(ctx, userId, now))) throw new AppError(429, 'ProfileEmailTooFrequent');
  // After the slot: the answer costs a minute whichever address is asked about (no mail goes out).
  if (await verifiedElsewhere(ctx, userId, email)) throw new AppError(409, 'ProfileEmailAlreadyBound');

  const token = randomSecret(32);
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('users')
      .set({ email, email_verified: 0, updated_at: now })
      .where('id', '=', userId)
      .execute();
    await trx.deleteFrom('email_tokens').where('user_id', '=', userId).where('used_at', 'is', null).execute();
    await trx
      .insertInto('email_tokens')
      .values({
        token_hash: sha256(token),
        user_id: userId,
        email,
        created_at: now,
        expires_at: now + EMAIL_TOKEN_TTL_MS,
        used_at: null,
      })
      .execute();
  });
  if (user.email && !same) await noticeToOldAddress(ctx, user.email, email, origin);

  const link = `${origin.baseUrl}/users/emails?token=${encodeURIComponent(token)}`;
  const text = MAIL_TEXT[origin.locale];
  try {
    await ctx.mailer.send({ to: email, subject: text.subject, text: text.body(link) });
  } catch (err) {
    origin.log.warn({ err: (err as Error).message, to: email }, 'activation mail failed');
    await releaseSendSlot(ctx, userId, now);
    if (err instanceof MailNotConfiguredError) throw new AppError(400, 'MailServiceNotConfigured');
    throw new AppError(502, 'ProfileEmailSendFailed');
  }
  // A resend to the same address is not news; a new or changed address is (someone may be taking the account).
  if (!same) await ctx.events.emit({ type: mode === 'bind' ? 'email.bound' : 'email.changed', email, to: { userId } });
  return stateOf(ctx, userId);
}

/**
 * Removes the address (it must be the bound one), with the same proof as a change; pending activation links stop
 * working and the removed address is told.
 */
export async function unbindEmail(
  ctx: AppContext,
  userId: string,
  rawEmail: string,
  origin: MailOrigin,
  proof: EmailProof = {},
): Promise<EmailState> {
  const email = rawEmail.trim().toLowerCase();
  const user = await ctx.db
    .selectFrom('users')
    .select(['username', 'password_hash', 'email', 'email_verified'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  if (!user.email || user.email.toLowerCase() !== email) throw new AppError(400, 'ProfileEmailBindingStatusWrong');
  await proveChange(ctx, userId, user, proof, origin);
  const now = ctx.clock.now().getTime();
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('users')
      .set({ email: null, email_verified: 0, updated_at: now })
      .where('id', '=', userId)
      .execute();
    await trx.deleteFrom('email_tokens').where('user_id', '=', userId).where('used_at', 'is', null).execute();
  });
  await noticeToOldAddress(ctx, user.email, null, origin);
  await ctx.events.emit({ type: 'email.unbound', email: user.email, to: { userId } });
  return stateOf(ctx, userId);
}

/**
 * Spends an activation token of the signed-in user: it must be theirs, unused, unexpired and for
 * the address currently bound; the address then counts as verified.
 */
export async function verifyEmail(ctx: AppContext, userId: string, token: string): Promise<EmailState> {
  const hash = sha256(token);
  const row = await ctx.db.selectFrom('email_tokens').selectAll().where('token_hash', '=', hash).executeTakeFirst();
  // Unknown, spent and other users' tokens look the same.
  if (!row || row.user_id !== userId || row.used_at !== null) throw new AppError(400, 'ProfileEmailTokenMismatch');
  const now = ctx.clock.now().getTime();
  if (now >= row.expires_at) throw new AppError(400, 'ProfileEmailLinkExpired');
  const user = await ctx.db
    .selectFrom('users')
    .select(['email', 'email_verified'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  if (!user.email) throw new AppError(400, 'ProfileEmailBindingStatusWrong');
  if (user.email.toLowerCase() !== row.email.toLowerCase()) throw new AppError(400, 'ProfileEmailActivateMismatch');
  if (await verifiedElsewhere(ctx, userId, row.email)) throw new AppError(409, 'ProfileEmailAlreadyBound');
  const spent = await ctx.db
    .updateTable('email_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', hash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (Number(spent.numUpdatedRows) !== 1) throw new AppError(400, 'ProfileEmailTokenMismatch');
  await ctx.db
    .updateTable('users')
    .set({ email_verified: 1, updated_at: now })
    .where('id', '=', userId)
    .where('email', '=', user.email)
    .execute();
  return stateOf(ctx, userId);
}

// ——— avatar ———

/** A stored avatar file's path; `name` is one the service made (checked by the route's pattern or the table). */
const avatarFile = (ctx: AppContext, name: string) => path.join(avatarDir(ctx), name);

/** Removes stored files whose rows are gone (a missing file is fine: another instance may have been first). */
async function removeAvatarFiles(ctx: AppContext, names: readonly string[]): Promise<void> {
  await Promise.all(names.map((name) => fs.rm(avatarFile(ctx, name), { force: true })));
}

/**
 * Refuses an image whose header announces more than the pixel budget (frames of an animation count), before
 * anything is decoded: sharp's metadata reads only the header.
 */
async function checkPixels(data: Buffer, kind: AvatarKind): Promise<void> {
  let meta: sharp.Metadata;
  try {
    meta = await sharp(data, { animated: kind === 'gif' }).metadata();
  } catch {
    throw new AppError(400, 'ProfileAvatarUnreadable');
  }
  const width = meta.width ?? 0;
  const height = meta.pageHeight ?? meta.height ?? 0;
  const frames = kind === 'gif' ? Math.max(1, meta.pages ?? 1) : 1;
  if (!width || !height) throw new AppError(400, 'ProfileAvatarUnreadable');
  if (width * height * frames > AVATAR_MAX_PIXELS) {
    throw new AppError(413, 'ProfileAvatarTooManyPixels', { max: Math.round(AVATAR_MAX_PIXELS / 1_000_000) });
  }
}

async function reencode(data: Buffer, kind: AvatarKind): Promise<Buffer> {
  // limitInputPixels again, in case a decoder reads more than the header said.
  const img = sharp(data, { failOn: 'warning', limitInputPixels: AVATAR_MAX_PIXELS, animated: kind === 'gif' });
  const meta = await img.metadata();
  const expected = { png: 'png', jpg: 'jpeg', gif: 'gif' }[kind];
  if (meta.format !== expected) throw new Error(`decoded as ${meta.format}, sniffed ${kind}`);
  // Metadata (EXIF, ICC, comments) is dropped: sharp writes none unless asked with withMetadata().
  let out = kind === 'jpg' ? img.rotate() : img;
  out = out.resize({ width: AVATAR_MAX_SIDE, height: AVATAR_MAX_SIDE, fit: 'inside', withoutEnlargement: true });
  if (kind === 'png') return out.png().toBuffer();
  if (kind === 'jpg') return out.jpeg({ quality: 90 }).toBuffer();
  return out.gif().toBuffer();
}

/** The bytes the stored avatars take, less the user's pending one (the new upload replaces it). */
async function storedBytesBesidesPending(ctx: AppContext, userId: string): Promise<number> {
  const row = await ctx.db
    .selectFrom('avatar_uploads')
    .select(
      sql<string | number>`coalesce(sum(case when user_id = ${userId} and in_use = 0 then 0 else size end), 0)`.as(
        'bytes',
      ),
    )
    .executeTakeFirstOrThrow();
  return Number(row.bytes);
}

/** How long an upload's turn is held at most when its request never ends (a crashed instance). */
const UPLOAD_TURN_MS = 60_000;

/**
 * Runs one avatar upload of the user (reading the body included) while no other upload of theirs is under way, on
 * any instance (a counter in the database, held until the upload ends): parallel uploads from one account are
 * refused before their bodies are read, so a burst costs one decode, not one per request.
 */
export async function inUploadTurn<T>(ctx: AppContext, userId: string, upload: () => Promise<T>): Promise<T> {
  const key = `avatar-upload-turn:user:${userId}`;
  const turn = await ctx.rateLimits.hit(key, 1, UPLOAD_TURN_MS);
  if (!turn.allowed) throw new AppError(409, 'ProfileAvatarUploadBusy');
  try {
    return await upload();
  } finally {
    await ctx.rateLimits.reset(key);
  }
}

/**
 * Checks an uploaded image by content (magic bytes, the header's pixel count, then a full decode), re-encodes it
 * without metadata and stores it under a random name as the user's one pending avatar: an earlier pending upload
 * of the user is removed with its file, so however many uploads a user makes, at most one waits. Refused with its
 * own error when the stored avatars would go over the storage budget; nothing is written when any check fails.
 */
export async function storeAvatar(ctx: AppContext, userId: string, data: Buffer): Promise<AvatarUploadAnswer> {
  if (data.length > AVATAR_MAX_BYTES) throw new AppError(413, 'ProfileAvatarTooLarge');
  const kind = sniffImageKind(data.subarray(0, 8));
  if (!kind) throw new AppError(400, 'ProfileAvatarFormat');
  await checkPixels(data, kind);
  let encoded: Buffer;
  try {
    encoded = await reencode(data, kind);
  } catch {
    throw new AppError(400, 'ProfileAvatarUnreadable');
  }
  const budget = ctx.config.avatarStorageBytes ?? DEFAULT_AVATAR_STORAGE_BYTES;
  // Checked before the write; parallel uploads of different users may pass it together by one avatar each.
  if ((await storedBytesBesidesPending(ctx, userId)) + encoded.length > budget) {
    throw new AppError(409, 'ProfileAvatarStorageFull');
  }
  const name = `${crypto.randomBytes(16).toString('hex')}.${kind}`;
  await fs.mkdir(avatarDir(ctx), { recursive: true });
  const file = avatarFile(ctx, name);
  await fs.writeFile(file, encoded, { flag: 'wx', mode: 0o644 });
  let replaced: string[];
  try {
    replaced = await ctx.db.transaction().execute(async (trx) => {
      // The user's row lock (PostgreSQL; SQLite runs one transaction at a time) orders a user's parallel uploads,
      // so each one removes the pending upload committed before it and exactly one stays.
      await trx
        .selectFrom('users')
        .select('id')
        .where('id', '=', userId)
        .$if(ctx.dialect === 'postgres', (q) => q.forUpdate())
        .executeTakeFirstOrThrow();
      const gone = await trx
        .deleteFrom('avatar_uploads')
        .where('user_id', '=', userId)
        .where('in_use', '=', 0)
        .returning('name')
        .execute();
      await trx
        .insertInto('avatar_uploads')
        .values({
          name,
          user_id: userId,
          content_type: AVATAR_CONTENT_TYPES[kind],
          created_at: ctx.clock.now().getTime(),
          size: encoded.length,
          in_use: 0,
        })
        .execute();
      return gone.map((g) => g.name);
    });
  } catch (e) {
    await fs.rm(file, { force: true });
    throw e;
  }
  await removeAvatarFiles(ctx, replaced);
  return { url: `/objects/avatars/${name}` };
}

/**
 * A stored avatar file for serving, or null when there is none by that name. A pending upload (not yet anyone's
 * avatar) is shown only to its uploader (`viewerId`), so an upload is no public file host.
 */
export async function readAvatar(
  ctx: AppContext,
  name: string,
  viewerId: string | undefined,
): Promise<{ data: Buffer; contentType: string; pending: boolean } | null> {
  const row = await ctx.db
    .selectFrom('avatar_uploads')
    .select(['content_type', 'in_use', 'user_id'])
    .where('name', '=', name)
    .executeTakeFirst();
  if (!row) return null;
  const pending = row.in_use !== 1;
  if (pending && row.user_id !== viewerId) return null;
  try {
    return { data: await fs.readFile(avatarFile(ctx, name)), contentType: row.content_type, pending };
  } catch {
    return null;
  }
}

/**
 * Sets the avatar to one of the user's own uploads, or back to the default (null/empty). Any other
 * value is refused without being fetched; another user's upload answers 404 (so does an upload replaced by a later
 * one or removed after its hour). The replaced file is removed.
 */
export async function setAvatar(ctx: AppContext, userId: string, avatar: string | null): Promise<SessionUser> {
  let next: string | null = null;
  if (avatar) {
    const m = AVATAR_PATH_RE.exec(avatar);
    if (!m) throw new AppError(400, 'ProfileAvatarNotUploaded');
    // Taken first, in one statement: a parallel upload or housekeeping then leaves it alone.
    const taken = await ctx.db
      .updateTable('avatar_uploads')
      .set({ in_use: 1 })
      .where('name', '=', m[1])
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) !== 1) throw new AppError(404, 'NotFound');
    next = avatar;
  }
  const before = await ctx.db.selectFrom('users').select('avatar').where('id', '=', userId).executeTakeFirstOrThrow();
  await ctx.db
    .updateTable('users')
    .set({ avatar: next, updated_at: ctx.clock.now().getTime() })
    .where('id', '=', userId)
    .execute();
  const old = before.avatar ? AVATAR_PATH_RE.exec(before.avatar) : null;
  if (old && before.avatar !== next) {
    const r = await ctx.db
      .deleteFrom('avatar_uploads')
      .where('name', '=', old[1])
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (Number(r.numDeletedRows) === 1) await removeAvatarFiles(ctx, [old[1]]);
  }
  if (before.avatar !== next) await ctx.events.emit({ type: 'avatar.changed', to: { userId } });
  return loadUser(ctx, userId);
}

/**
 * Housekeeping: removes uploads nobody set as avatar within the hour, with their files. Each row is deleted by one
 * instance only (the DELETE answers which), so instances sharing the data folder do not race on a file.
 */
export async function purgePendingAvatars(ctx: AppContext): Promise<void> {
  const gone = await ctx.db
    .deleteFrom('avatar_uploads')
    .where('in_use', '=', 0)
    .where('created_at', '<=', ctx.clock.now().getTime() - AVATAR_PENDING_TTL_MS)
    .returning('name')
    .execute();
  await removeAvatarFiles(
    ctx,
    gone.map((g) => g.name),
  );
}
