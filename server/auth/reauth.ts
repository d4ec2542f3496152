import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext, RequestSession } from '../context';
import { DEFAULT_REAUTH_WINDOW_MINUTES } from '../config';
import { AppError } from '../errors';
import { LOCK_AT_FAILURES, LOCK_DURATION_MS, type Lock } from './lockout';
import { sessionCookieName } from './sessions';
import { OAUTH_PROVIDERS, type OAuthProvider } from '../../schemas/sign-in-paths';
import type { ReauthResult, ReauthState } from '../../schemas/reauth';
import type { ServerLocale } from '../i18n/index';

/**
 * Re-authentication ("sudo mode", schemas/reauth.ts): a session's proof (`sessions.proved_at`; a sign-in is one)
 * holds for `REAUTH_WINDOW_MINUTES`; routes marked `config.reauth` refuse an older one (server/http/pipeline.ts).
 * A proof is the account's password, its directory's for a directory account, or a fresh round trip to its
 * third-party provider (the login slice's OAuth flow calls `recordProof`). Every proof rotates the session.
 */

/** How long a proof holds, in ms, from the configuration. */
export function reauthWindowMs(ctx: Pick<AppContext, 'config'>): number {
  return (ctx.config.reauthWindowMinutes ?? DEFAULT_REAUTH_WINDOW_MINUTES) * 60_000;
}

/** Until when the session's last proof holds (epoch ms). */
export function freshUntil(ctx: Pick<AppContext, 'config'>, session: Pick<RequestSession, 'provedAt'>): number {
  return session.provedAt + reauthWindowMs(ctx);
}

/** True while the session's last proof is within the window. */
export function isFresh(ctx: Pick<AppContext, 'config' | 'clock'>, session: Pick<RequestSession, 'provedAt'>): boolean {
  return ctx.clock.now().getTime() < freshUntil(ctx, session);
}

/**
 * The password change needs a proof only sometimes, so it asks here instead of declaring `config.reauth`: changing
 * an existing password needs a recent proof (403 ReauthRequired); a first password keeps its own (the code mailed to
 * the account, or its directory password), and a forced change follows a sign-in, which is one.
 */
export async function requireFreshProofToChangePassword(ctx: AppContext, session: RequestSession): Promise<void> {
  if (isFresh(ctx, session)) return;
  const row = await ctx.db
    .selectFrom('users')
    .select('password_hash')
    .where('id', '=', session.user.id)
    .executeTakeFirst();
  if (row?.password_hash) throw new AppError(403, 'ReauthRequired');
}

/** The third-party providers' names as the dialog's button shows them. */
const PROVIDER_NAMES: Record<OAuthProvider, Record<ServerLocale, string>> = {
  dingtalk: { zh_CN: '钉钉', en_US: 'DingTalk' },
  lark: { zh_CN: '飞书', en_US: 'Lark' },
  wecom: { zh_CN: '企业微信', en_US: 'WeCom' },
};

/** The identity credential a provider's accounts are bound under (Lark binds as `feishu`). */
const credentialOf = (provider: OAuthProvider) => (provider === 'lark' ? 'feishu' : provider);

/**
 * How the session's account proves itself: a directory account with its directory password (first, as the e-mail
 * change did: a local password set with a stolen session proves nothing there); an account with a password with it;
 * else a round trip to an enabled provider it is bound to (`provider` null when it has none: signing in again is
 * then its only proof).
 */
export async function reauthState(ctx: AppContext, req: FastifyRequest): Promise<ReauthState> {
  const session = req.session!;
  const userId = session.user.id;
  const base = {
    provider: null,
    directory: null,
    window_minutes: reauthWindowMs(ctx) / 60_000,
    fresh_until: isFresh(ctx, session) ? new Date(freshUntil(ctx, session)).toISOString() : null,
  };
  const directory = ctx.directoryPasswords ? await ctx.directoryPasswords.sourceOf(userId) : null;
  if (directory) return { ...base, method: 'directory', directory: directory.name };
  const row = await ctx.db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirst();
  if (row?.password_hash) return { ...base, method: 'password' };
  const [enabled, bound] = await Promise.all([
    ctx.signInMethods ? ctx.signInMethods(req).then((m) => m.oauth) : Promise.resolve([] as OAuthProvider[]),
    ctx.db.selectFrom('identities').select('credential').where('user_id', '=', userId).execute(),
  ]);
  const credentials = new Set(bound.map((b) => b.credential));
  const provider = OAUTH_PROVIDERS.find((p) => enabled.includes(p) && credentials.has(credentialOf(p)));
  return {
    ...base,
    method: 'provider',
    provider: provider ? { id: provider, name: PROVIDER_NAMES[provider][req.locale] } : null,
  };
}

/**
 * The session proved its owner (`method`: `password`, `directory` or a provider id): the row is rotated in place (a
 * new cookie, set on `reply`, and CSRF token; `proved_at` now), `reauth.succeeded` goes to the account. 401 when the
 * session went away meanwhile (ended, or rotated by a parallel proof).
 */
export async function recordProof(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  method: string,
): Promise<ReauthResult> {
  const session = req.session!;
  const rotated = await ctx.sessions.prove(session.idHash);
  if (!rotated) throw new AppError(401, 'Unauthorized');
  reply.setCookie(sessionCookieName(ctx.secureCookies), rotated.id, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: ctx.secureCookies,
  });
  req.session = { ...session, idHash: rotated.idHash, csrfToken: rotated.csrfToken, provedAt: rotated.provedAt };
  await ctx.events.emit({ type: 'reauth.succeeded', method, to: { userId: session.user.id } });
  return {
    csrf_token: rotated.csrfToken,
    fresh_until: new Date(freshUntil(ctx, { provedAt: rotated.provedAt })).toISOString(),
  };
}

/** The account's directory could not judge the password; the attempt's lockout slot is given back. */
class DirectoryCannotJudge extends Error {}

/**
 * The lock a proof counts in, as a sign-in from this browser would (smart lockout): the marked one when the browser
 * carries a current device mark of the account (`ctx.trustedBrowsers`, the login slice's), else the unmarked one.
 */
async function lockOf(ctx: AppContext, req: FastifyRequest, userId: string): Promise<Lock> {
  if (!ctx.trustedBrowsers) return 'unmarked';
  return (await ctx.trustedBrowsers.list(userId, req)).some((b) => b.current) ? 'marked' : 'unmarked';
}

/**
 * A password proof (`POST /users/ajax/v1/my/reauth`), judged under the account's sign-in lockout as a wrong
 * password at sign-in is: the attempt takes its slot before anything is evaluated (server/auth/lockout.ts, as a
 * sign-in with a slider pass: the dialog has no slider, the session stands for it), so N parallel wrong proofs
 * evaluate at most 5 passwords; a wrong one keeps its slot, the 5th locks the account for an hour and tells the
 * owner (`account.locked`), a right one clears the count; while locked nothing is evaluated (423). Counted in the
 * lock of the browser that sends it, as at sign-in and at the password change: the marked one for a browser carrying
 * the account's device mark, the unmarked one for any other (a session cookie copied elsewhere), so a copied
 * session's guesses never lock the owner's own browsers out of signing in. A directory account's password is its
 * directory's (a directory that cannot judge gives the slot back: 503). An account that proves through a provider
 * has no password to give (400 ReauthMethodUnavailable).
 */
export async function proveWithPassword(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  password: string,
): Promise<ReauthResult> {
  const session = req.session!;
  const userId = session.user.id;
  const username = session.user.username;
  const directories = ctx.directoryPasswords;
  const directory = directories ? await directories.sourceOf(userId) : null;
  let method: 'password' | 'directory';
  let check: () => Promise<boolean>;
  if (directories && directory) {
    method = 'directory';
    check = async () => {
      const verdict = await directories.verify(userId, password, req.log);
      if (verdict === 'unavailable' || verdict === 'not-directory') throw new DirectoryCannotJudge();
      return verdict === 'ok';
    };
  } else {
    const row = await ctx.db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirst();
    const hash = row?.password_hash;
    if (!hash) throw new AppError(400, 'ReauthMethodUnavailable');
    method = 'password';
    check = () => ctx.hasher.verify(hash, password);
  }
  const to = { userId };
  const lock = await lockOf(ctx, req, userId);
  const slot = await ctx.lockout.reserve(username, true, lock);
  if (slot.kind !== 'granted') {
    await ctx.events.emit({ type: 'reauth.failed', method, reason: 'locked', to });
    throw new AppError(423, 'ReauthAccountLocked');
  }
  let right: boolean;
  try {
    right = await check();
  } catch (e) {
    await ctx.lockout.release(username, slot.slot, lock);
    if (e instanceof DirectoryCannotJudge) throw new AppError(503, 'ReauthDirectoryUnavailable');
    throw e;
  }
  if (!right) {
    await ctx.events.emit({ type: 'reauth.failed', method, reason: 'wrong-password', to });
    if (slot.slot < LOCK_AT_FAILURES) throw new AppError(400, 'ReauthPasswordIncorrect');
    // Only the attempt holding the locking slot gets here, so the owner hears of each lock once.
    const until = ctx.clock.now().getTime() + LOCK_DURATION_MS;
    await ctx.events.emit({ type: 'account.locked', until, address: req.ip, lock, to });
    throw new AppError(423, 'ReauthAccountLocked');
  }
  await ctx.lockout.succeeded(username, lock);
  return recordProof(ctx, req, reply, method);
}
