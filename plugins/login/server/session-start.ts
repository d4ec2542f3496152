import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext, SessionUser } from '../../../server/context';
import type { UsersTable } from '../../../server/db/schema';
import { sessionCookieName, type SessionDetails } from '../../../server/auth/sessions';
import { toMe } from '../../../server/routes/core';
import type { LoginResult } from '../contract';
import { readMarks, rotateMark, type DeviceMark } from './device-mark';

/** The session cookie's options: the whole site, httpOnly, SameSite=Lax, Secure on https. */
export const sessionCookieOptions = (ctx: Pick<AppContext, 'secureCookies'>) => ({
  path: '/',
  httpOnly: true,
  sameSite: 'lax' as const,
  secure: ctx.secureCookies,
});

/** How a session about to start was signed in. */
export interface SessionStart {
  /** `password`, `ldap`, `ad`, `passkey` or a third-party provider. */
  method: string;
  /** The second factor answered (or `passkey`, both at once); the session store refuses a two-factor account without. */
  secondFactor?: SessionDetails['secondFactor'];
  /** The browser's device marks when the caller read them already. */
  marks?: readonly DeviceMark[];
}

/**
 * The end of every way in, once: whatever session the browser had ends (rotation), the new one starts (the store
 * refuses a held account, and a two-factor account without its factor), its cookie is set, and the browser gets the
 * account's device mark afresh (smart lockout). Answers the new session's CSRF token.
 */
export async function openSession(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  userId: string,
  start: SessionStart,
): Promise<{ csrfToken: string }> {
  if (req.session) await ctx.sessions.destroy(req.session.idHash);
  const s = await ctx.sessions.create(userId, {
    method: start.method,
    userAgent: req.headers['user-agent'],
    address: req.ip,
    ...(start.secondFactor ? { secondFactor: start.secondFactor } : {}),
  });
  reply.setCookie(sessionCookieName(ctx.secureCookies), s.id, sessionCookieOptions(ctx));
  await rotateMark(ctx, reply, start.marks ?? (await readMarks(ctx, req)), userId);
  return { csrfToken: s.csrfToken };
}

/** What a finished sign-in answers: who, whether the password must be changed first, the session's CSRF token. */
export function signedIn(user: UsersTable, csrfToken: string): LoginResult {
  const { password_hash: _p, held_at: _h, ...rest } = user;
  return {
    user: toMe(rest as SessionUser),
    must_change_password: user.must_change_password === 1,
    csrf_token: csrfToken,
  };
}
