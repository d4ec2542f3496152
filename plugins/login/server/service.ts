import type { AppContext } from '../../../server/context';
import { passwordRuleViolation } from '../../../server/auth/passwords';
import { LOCK_AT_FAILURES, LOCK_DURATION_MS, type Lock } from '../../../server/auth/lockout';
import { noteSignIn } from './devices';
import { lockFor, type DeviceMark } from './device-mark';
import { findUserByUsername, maskEmail, recoveryTarget } from '../../../server/services/accounts';
import { AppError } from '../../../server/errors';
import type { DirectoryTroubleLog } from '../../../server/auth/directory-passwords';
import type { SignInFailure } from '../../../server/events';
import { addressSubject } from '../../../server/http/rate-limit';
import type { UsersTable } from '../../../server/db/schema';
import { NEXT_URL_MAX, type UsernameCheckAnswer } from '../contract';
import type { EditionManifest } from '../../../schemas/edition';
import {
  listedRedirectOrigins,
  redirectOriginOf,
  safeNextTarget,
  type RedirectScope,
} from '../../../schemas/redirect-rule';

/**
 * Result of a sign-in attempt; every kind looks the same for existing and unknown names. `secondFactor`: the password
 * was right but the account has a second factor (issue 41), so it is only half a sign-in: no success is counted or
 * told yet, and the factor's answers count under `key` in `lock`, as the password did.
 */
export type SignInResult =
  | { kind: 'ok'; user: UsersTable }
  | { kind: 'secondFactor'; user: UsersTable; key: string; lock: Lock }
  | { kind: 'incorrect' }
  | { kind: 'locked' }
  | { kind: 'captchaRequired' }
  | { kind: 'captchaInvalid' };

/** Failed sign-ins from one client address after which every sign-in from it needs the slider. */
export const IP_CAPTCHA_AFTER_FAILURES = 10;
/** The window those address failures are counted in (ms). */
export const IP_FAILURE_WINDOW_MS = 15 * 60 * 1000;

const ipFailureKey = (ctx: AppContext, ip: string) => `login-fail:ip:${addressSubject(ctx, ip)}`;

/** What a sign-in attempt carries besides the credentials. */
export interface SignInAttempt {
  username: string;
  password: string;
  /** A slider pass for this username, spent by this attempt whatever its outcome. */
  captchaPass?: string;
  /** The client address (socket, or X-Forwarded-For from a trusted proxy). */
  ip: string;
  /** The browser's User-Agent, to tell its owner of a sign-in with a browser not seen before. */
  userAgent?: string;
  /** The device marks the browser carries (signatures checked): a current one of the account picks the marked lock. */
  marks?: readonly DeviceMark[];
  /** How it signs in, as the account's history says (`password` unless told: `ldap`, `ad`). */
  method?: string;
}

/** The lock an attempt on `username` counts in: its account's id is looked up only when the browser has marks. */
export async function lockForName(
  ctx: AppContext,
  marks: readonly DeviceMark[] | undefined,
  username: string,
): Promise<Lock> {
  if (!marks?.length) return 'unmarked';
  return lockFor(ctx, marks, (await findUserByUsername(ctx.db, username))?.id);
}

/**
 * Whether the next sign-in for a name from an address (and a browser with `marks`) needs a slider pass, and whether
 * the name is locked, in the lock that sign-in would count in.
 */
export async function signInNeeds(
  ctx: AppContext,
  username: string,
  ip: string,
  marks: readonly DeviceMark[] | undefined,
) {
  const lock = await lockForName(ctx, marks, username);
  const [state, fromIp] = await Promise.all([
    ctx.lockout.state(username, lock),
    ctx.rateLimits.peek(ipFailureKey(ctx, ip)),
  ]);
  return { locked: state.locked, needCaptcha: state.needCaptcha || fromIp >= IP_CAPTCHA_AFTER_FAILURES };
}

/** What judging an attempt's password found: whether it is right, and the account the name belongs to (if any). */
export interface Judgement {
  ok: boolean;
  user: UsersTable | undefined;
}

/**
 * Runs one sign-in attempt under the lockout rule, whoever judges the password (the account's hash, a directory).
 * A pass is spent first (single use, the typed name only); then the attempt takes its slot of `key` atomically
 * (server/auth/lockout.ts) before any password is evaluated, so a burst of parallel attempts evaluates at most 5
 * passwords, at most 2 without passes, per lock. The lock is `marked` when the browser carries a current device
 * mark of `account()` (the account the key belongs to), else `unmarked`. `judge` may throw: the slot is then
 * given back (nothing was evaluated). Every outcome for a known account goes to that account's history
 * (`sign-in.succeeded` / `sign-in.failed` with the reason); an attempt on a name no account has goes nowhere. A right
 * password of an account with a second factor gives its slot back and stops there (`secondFactor`): the count is
 * cleared, and the success told, only when the factor is right (./second-step.ts).
 */
export async function underLockout(
  ctx: AppContext,
  attempt: SignInAttempt,
  key: string,
  judge: () => Promise<Judgement>,
  account: () => Promise<string | undefined> = async () => (await findUserByUsername(ctx.db, key))?.id,
): Promise<SignInResult> {
  const { username, captchaPass, ip } = attempt;
  const method = attempt.method ?? 'password';
  const withPass = !!captchaPass;
  let accountId: Promise<string | undefined> | undefined;
  const accountOnce = () => (accountId ??= account());
  /** Tells the account's history of a refused attempt (nobody's, when no account has the name). */
  const refused = async (
    kind: Exclude<SignInResult['kind'], 'ok' | 'secondFactor'>,
    reason: SignInFailure,
    userId?: string,
  ) => {
    const to = userId ?? (await accountOnce());
    if (to) await ctx.events.emit({ type: 'sign-in.failed', method, reason, to: { userId: to } });
    return { kind };
  };
  if (captchaPass && !(await ctx.captcha.spend(username, captchaPass)))
    return refused('captchaInvalid', 'slider-failed');
  const lock = attempt.marks?.length ? await lockFor(ctx, attempt.marks, await accountOnce()) : 'unmarked';
  if (!withPass && (await ctx.rateLimits.peek(ipFailureKey(ctx, ip))) >= IP_CAPTCHA_AFTER_FAILURES) {
    return (await ctx.lockout.isLocked(key, lock))
      ? refused('locked', 'locked')
      : refused('captchaRequired', 'slider-failed');
  }
  const slot = await ctx.lockout.reserve(key, withPass, lock);
  if (slot.kind === 'locked') return refused('locked', 'locked');
  if (slot.kind === 'captcha') return refused('captchaRequired', 'slider-failed');
  let judged: Judgement;
  try {
    judged = await judge();
  } catch (e) {
    await ctx.lockout.release(key, slot.slot, lock);
    throw e;
  }
  const { ok, user } = judged;
  if (!ok || !user) {
    await ctx.rateLimits.hit(ipFailureKey(ctx, ip), Number.MAX_SAFE_INTEGER, IP_FAILURE_WINDOW_MS);
    const reason = method === 'password' ? 'wrong-password' : 'directory-refused';
    if (slot.slot < LOCK_AT_FAILURES) return user ? refused('incorrect', reason, user.id) : { kind: 'incorrect' };
    // Only the attempt holding the locking slot gets here, so the owner hears of each lock once.
    if (user) {
      await refused('locked', reason, user.id);
      const until = ctx.clock.now().getTime() + LOCK_DURATION_MS;
      await ctx.events.emit({ type: 'account.locked', until, address: ip, lock, to: { userId: user.id } });
    }
    return { kind: 'locked' };
  }
  if (await ctx.secondFactors.hasFactor(user.id)) {
    // Half a sign-in: a right password is no failure, so its slot is given back, but the count stays until the
    // second factor is right. Clearing it here would let someone who knows the password re-enter it between guesses
    // of the factor and guess codes for ever; this way the password and the factor's guesses share one count.
    await ctx.lockout.release(key, slot.slot, lock);
    return { kind: 'secondFactor', user, key, lock };
  }
  await ctx.lockout.succeeded(key, lock);
  await ctx.events.emit({ type: 'sign-in.succeeded', method, to: { userId: user.id } });
  await noteSignIn(ctx, user.id, ip, attempt.userAgent);
  return { kind: 'ok', user };
}

/**
 * Checks a username/password pair against the account's own password under the lockout rule. Unknown names cost a
 * dummy argon2 check so timing matches.
 */
export async function signIn(ctx: AppContext, attempt: SignInAttempt): Promise<SignInResult> {
  return underLockout(ctx, attempt, attempt.username, async () => {
    const user = await findUserByUsername(ctx.db, attempt.username);
    const ok = user?.password_hash
      ? await ctx.hasher.verify(user.password_hash, attempt.password)
      : await ctx.hasher.dummyVerify(attempt.password);
    return { ok, user };
  });
}

/** Plain checks (locked / needs the slider; the same for any name) one address may make per minute. */
export const STATE_CHECKS_PER_MINUTE = 60;

/** The limit of plain checks from an address. */
export const stateCheckLimit = (ctx: Pick<AppContext, 'config'>, ip: string) => ({
  key: `check:ip:${addressSubject(ctx, ip)}`,
  limit: STATE_CHECKS_PER_MINUTE,
  windowMs: 60_000,
});

/**
 * The check: locked / needs the slider, alike for every name; with a valid (unspent) pass for the name, also
 * whether the account exists and has a verified e-mail, which is only told to someone who solved the slider.
 */
export async function checkUsername(
  ctx: AppContext,
  username: string,
  ip: string,
  pass: string | undefined,
  marks?: readonly DeviceMark[],
): Promise<UsernameCheckAnswer> {
  const needs = await signInNeeds(ctx, username, ip, marks);
  const answer: UsernameCheckAnswer = { locked: needs.locked, need_captcha: needs.needCaptcha };
  if (pass === undefined) return answer;
  if (!(await ctx.captcha.isValid(username, pass))) throw new AppError(403, 'CaptchaInvalid');
  const target = await recoveryTarget(ctx.db, username);
  if (target.kind === 'notFound') throw new AppError(404, 'AccountNotExist');
  if (target.kind === 'noEmail') throw new AppError(400, 'AccountNoEmail');
  return { ...answer, exists: true, email: maskEmail(target.email) };
}

/** A password change as the route hands it over: who, the new password, and what proves the account. */
export interface PasswordChange {
  userId: string;
  /** The session that asks (it stays; the user's other sessions end). */
  keepSessionHash: string;
  newPassword: string;
  /** The current password; for a directory account's first password, its directory password. */
  oldPassword?: string;
  /** For the first password of an account with an address: the code mailed there (purpose `password`). */
  code?: string;
  /** The client address (the account-locked message names it). */
  ip: string;
  /** The browser's device marks: a current one of the account picks the marked lock. */
  marks?: readonly DeviceMark[];
  /** Where a directory's trouble is noted (never a secret). */
  log?: DirectoryTroubleLog;
}

/** What proves a password change, and the codes of a missing and a wrong proof. */
const PASSWORD_PROOFS = {
  password: { missing: 'OldPasswordRequired', wrong: 'OldPasswordIncorrect' },
  directory: { missing: 'FirstPasswordDirectoryPasswordRequired', wrong: 'FirstPasswordDirectoryPasswordIncorrect' },
  code: { missing: 'FirstPasswordCodeRequired', wrong: 'FirstPasswordCodeIncorrect' },
} as const;

/** The account's directory could not judge its password; the attempt's lockout slot is given back. */
class DirectoryCannotJudge extends Error {}

/**
 * Changes the signed-in user's password under the rule; ends their other sessions. The account proves itself first:
 * with its current password when it has one. Its first password needs what an e-mail change needs (issue 38, item 3),
 * so a stolen session cannot set a password and then use it as the proof of an e-mail change (or sign in with it
 * after the session is gone): a directory account gives its directory password, judged by the directory; an account
 * with an address gives the code mailed there for this purpose (`ctx.emailCodes`, spent once); an account with
 * neither has nothing to prove with (it could bind an address with its session alone anyway).
 * The proof is judged under the account's sign-in lockout (server/auth/lockout.ts), as a sign-in with a slider
 * pass: the attempt takes its slot before anything is evaluated, a wrong one keeps it, the 5th locks the account for
 * an hour (sign-in included: whoever holds the session guesses no further than a stranger at the sign-in page), a
 * right one clears the count. While the account is locked even the right proof is refused (423 AccountLocked),
 * unevaluated. A directory that cannot judge gives the slot back (503 DirectoryUnavailable). The lock is the
 * browser's, as at sign-in: a browser with a current device mark of the account counts in the marked lock, any other
 * (a session cookie copied elsewhere) in the unmarked one.
 */
export async function changePassword(ctx: AppContext, change: PasswordChange): Promise<void> {
  const { userId, newPassword, oldPassword, code, ip, marks = [] } = change;
  const violation = passwordRuleViolation(newPassword);
  if (violation) throw new AppError(400, violation);
  const row = await ctx.db
    .selectFrom('users')
    .select(['username', 'password_hash', 'email'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const directories = ctx.directoryPasswords;
  let kind: keyof typeof PASSWORD_PROOFS | null = null;
  let given: string | undefined;
  let check: () => Promise<boolean> = async () => false;
  if (row.password_hash) {
    const hash = row.password_hash;
    [kind, given] = ['password', oldPassword];
    check = () => ctx.hasher.verify(hash, oldPassword!);
  } else if (directories && (await directories.sourceOf(userId))) {
    [kind, given] = ['directory', oldPassword];
    check = async () => {
      const verdict = await directories.verify(userId, oldPassword!, change.log);
      // The directory could not judge (down, or no longer the account's): nothing was evaluated.
      if (verdict === 'unavailable' || verdict === 'not-directory') throw new DirectoryCannotJudge();
      return verdict === 'ok';
    };
  } else if (row.email) {
    const codes = ctx.emailCodes;
    [kind, given] = ['code', code];
    // Without the slice that mails codes no code can be right: the account then has no way to set one here.
    if (codes) check = () => codes.take(userId, 'password', code!);
  }
  if (kind) {
    if (!given) throw new AppError(400, PASSWORD_PROOFS[kind].missing);
    const lock = await lockFor(ctx, marks, userId);
    const slot = await ctx.lockout.reserve(row.username, true, lock);
    if (slot.kind !== 'granted') throw new AppError(423, 'AccountLocked');
    let right: boolean;
    try {
      right = await check();
    } catch (e) {
      await ctx.lockout.release(row.username, slot.slot, lock);
      if (e instanceof DirectoryCannotJudge) throw new AppError(503, 'DirectoryUnavailable');
      throw e;
    }
    if (!right) {
      if (slot.slot < LOCK_AT_FAILURES) throw new AppError(400, PASSWORD_PROOFS[kind].wrong);
      // Only the attempt holding the locking slot gets here, so the owner hears of each lock once.
      const until = ctx.clock.now().getTime() + LOCK_DURATION_MS;
      await ctx.events.emit({ type: 'account.locked', until, address: ip, lock, to: { userId } });
      throw new AppError(423, 'AccountLocked');
    }
    await ctx.lockout.succeeded(row.username, lock);
    if (kind === 'password' && oldPassword === newPassword) throw new AppError(400, 'PasswordSameAsOld');
  }
  const hash = await ctx.hasher.hash(newPassword);
  await ctx.db
    .updateTable('users')
    .set({ password_hash: hash, must_change_password: 0, updated_at: ctx.clock.now().getTime() })
    .where('id', '=', userId)
    .execute();
  await ctx.sessions.destroyOthers(userId, change.keepSessionHash);
  await ctx.events.emit({
    type: 'password.changed',
    how: row.password_hash ? 'settings' : 'first-sign-in',
    to: { userId },
  });
}

/** What a `next` is checked against: PUBLIC_URL (the config) and the edition's application addresses. */
export type NextUrlScope = {
  config: Pick<AppContext['config'], 'publicUrl'>;
  edition: Pick<EditionManifest, 'appSwitcher'>;
};

/** The redirect scope of this service: PUBLIC_URL's exact origin and the edition's absolute app addresses. */
export function nextUrlScope(scope: NextUrlScope): RedirectScope {
  return {
    origin: redirectOriginOf(scope.config.publicUrl),
    allowedOrigins: listedRedirectOrigins(scope.edition.appSwitcher.map((app) => app.url)),
  };
}

/**
 * The URL to go to after logout or sign-in, by the redirect rule (schemas/redirect-rule.ts): a normalised
 * same-origin path, or an http(s) URL on PUBLIC_URL's exact origin or an edition app's; anything else gives null
 * (use the default). Without PUBLIC_URL only paths pass; the request's Host header never widens the scope.
 */
export function safeNextUrl(next: string | undefined, scope: NextUrlScope): string | null {
  if (next !== undefined && next.length > NEXT_URL_MAX) return null;
  return safeNextTarget(next, nextUrlScope(scope));
}
