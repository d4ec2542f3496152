import type { AppContext } from '../../../server/context';
import { passwordRuleViolation } from '../../../server/auth/passwords';
import { findUserByUsername } from '../../../server/services/accounts';
import { AppError } from '../../../server/errors';
import type { UsersTable } from '../../../server/db/schema';
import { NEXT_URL_MAX } from '../contract';

/** Result of a sign-in attempt; 'incorrect' and 'locked' look the same for existing and unknown names. */
export type SignInResult = { kind: 'ok'; user: UsersTable } | { kind: 'incorrect' } | { kind: 'locked' };

/**
 * Checks a username/password pair under the lockout rule: failures count per lower-cased
 * username string (existing or not); unknown names cost a dummy argon2 check so timing matches.
 */
export async function signIn(ctx: AppContext, username: string, password: string): Promise<SignInResult> {
  if (await ctx.lockout.isLocked(username)) return { kind: 'locked' };
  const user = await findUserByUsername(ctx.db, username);
  const ok = user?.password_hash
    ? await ctx.hasher.verify(user.password_hash, password)
    : await ctx.hasher.dummyVerify(password);
  if (!ok || !user) {
    const r = await ctx.lockout.recordFailure(username);
    return r.locked ? { kind: 'locked' } : { kind: 'incorrect' };
  }
  if (!(await ctx.lockout.clearOnSuccess(username))) return { kind: 'locked' };
  return { kind: 'ok', user };
}

/** Changes the signed-in user's password under the rule; ends their other sessions. */
export async function changePassword(
  ctx: AppContext,
  userId: string,
  keepSessionHash: string,
  newPassword: string,
  oldPassword: string | undefined,
): Promise<void> {
  const violation = passwordRuleViolation(newPassword);
  if (violation) throw new AppError(400, violation);
  const row = await ctx.db
    .selectFrom('users')
    .select('password_hash')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  if (row.password_hash) {
    if (!oldPassword) throw new AppError(400, 'OldPasswordRequired');
    if (!(await ctx.hasher.verify(row.password_hash, oldPassword))) throw new AppError(400, 'OldPasswordIncorrect');
    if (oldPassword === newPassword) throw new AppError(400, 'PasswordSameAsOld');
  }
  const hash = await ctx.hasher.hash(newPassword);
  await ctx.db
    .updateTable('users')
    .set({ password_hash: hash, must_change_password: 0, updated_at: ctx.clock.now().getTime() })
    .where('id', '=', userId)
    .execute();
  await ctx.sessions.destroyOthers(userId, keepSessionHash);
}

/**
 * The URL to go to after logout or sign-in: a same-origin path, or an http(s) URL on this host,
 * the public host or one of its subdomains; anything else gives null (use the default).
 */
export function safeNextUrl(next: string | undefined, requestHost: string, publicUrl?: string): string | null {
  if (!next || next.length > NEXT_URL_MAX || next.includes('\\') || [...next].some((ch) => ch.charCodeAt(0) < 0x20))
    return null;
  if (next.startsWith('/')) return next.startsWith('//') ? null : next;
  let u: URL;
  try {
    u = new URL(next);
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  if (u.username || u.password) return null;
  const allowed = new Set([requestHost.toLowerCase()]);
  let publicHost: string | undefined;
  if (publicUrl) {
    publicHost = new URL(publicUrl).hostname.toLowerCase();
    allowed.add(new URL(publicUrl).host.toLowerCase());
  }
  const host = u.host.toLowerCase();
  if (allowed.has(host)) return u.toString();
  if (publicHost && (u.hostname === publicHost || u.hostname.endsWith(`.${publicHost}`))) return u.toString();
  return null;
}
