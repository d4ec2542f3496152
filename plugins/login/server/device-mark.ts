import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../../server/context';
import type { Lock } from '../../../server/auth/lockout';
import { randomSecret, sha256 } from '../../../server/auth/random';
import { hmac, serviceSecret, verifyHmac } from '../../../server/auth/secrets';
import { describeBrowser } from '../../../server/auth/user-agent';
import { DEVICE_MEMORY_DAYS } from './devices';

/** The device mark cookie on http. */
export const DEVICE_COOKIE = 'account_device';
/** The device mark cookie on https: `__Host-` keeps sibling hosts and plain-http pages from setting it. */
export const SECURE_DEVICE_COOKIE = '__Host-account_device';
/** Marks one browser keeps (one per account signed in with it, the newest first). */
export const MARKS_PER_BROWSER = 5;
/** How long a mark is good for without a sign-in that renews it (as long as a browser is remembered). */
export const MARK_TTL_MS = DEVICE_MEMORY_DAYS * 24 * 60 * 60 * 1000;
/** `sign_in_devices.kind` of a mark's row (its value_hash is the SHA-256 of the mark's nonce). */
export const MARK_KIND = 'mark';

/** The key name of the marks' HMAC in `service_secrets`. */
const SECRET_NAME = 'device-mark';
/** A cookie longer than this is not read at all (five marks are about 400 characters). */
const COOKIE_MAX = 1024;
const PART = /^[A-Za-z0-9_-]{1,64}$/;

/** One account's mark in a browser, its signature already checked: which account, and the nonce that names it. */
export interface DeviceMark {
  userId: string;
  nonce: string;
}

/** The device mark cookie's name for a service served over https (`secure`) or not. */
export function deviceCookieName(secure: boolean): string {
  return secure ? SECURE_DEVICE_COOKIE : DEVICE_COOKIE;
}

const signed = (m: DeviceMark) => `device-mark/v1|${m.userId}|${m.nonce}`;

/**
 * The marks a request's browser carries whose signature is the service's: the HMAC binds each to its account, so
 * nothing but a sign-in to that account makes one. Whether a mark is still current is `lockFor`'s question.
 */
export async function readMarks(ctx: AppContext, req: FastifyRequest): Promise<DeviceMark[]> {
  const raw = req.cookies?.[deviceCookieName(ctx.secureCookies)];
  if (!raw || raw.length > COOKIE_MAX) return [];
  const key = await serviceSecret(ctx.db, ctx.clock, SECRET_NAME);
  const marks: DeviceMark[] = [];
  for (const item of raw.split('~').slice(0, MARKS_PER_BROWSER)) {
    const [userId, nonce, sig, ...rest] = item.split('.');
    if (rest.length || !PART.test(userId ?? '') || !PART.test(nonce ?? '') || !sig) continue;
    if (verifyHmac(key, signed({ userId, nonce }), sig)) marks.push({ userId, nonce });
  }
  return marks;
}

/**
 * The lock an attempt on account `accountId` counts in: `marked` when the browser carries a current mark of that
 * very account (one it was given at its latest sign-in there, less than `MARK_TTL_MS` ago), else `unmarked`. A mark
 * of another account, a replaced one (rotated by a later sign-in) or one for a name without an account gives
 * nothing.
 */
export async function lockFor(
  ctx: AppContext,
  marks: readonly DeviceMark[],
  accountId: string | undefined,
): Promise<Lock> {
  const own = marks.filter((m) => m.userId === accountId);
  if (!accountId || !own.length) return 'unmarked';
  const row = await ctx.db
    .selectFrom('sign_in_devices')
    .select('user_id')
    .where('user_id', '=', accountId)
    .where('kind', '=', MARK_KIND)
    .where(
      'value_hash',
      'in',
      own.map((m) => sha256(m.nonce)),
    )
    .where('last_seen', '>', ctx.clock.now().getTime() - MARK_TTL_MS)
    .executeTakeFirst();
  return row ? 'marked' : 'unmarked';
}

/**
 * Rotation at a successful sign-in: the browser's previous mark of the account stops counting, a new one is stored
 * (as a digest, with the browser's description for the security page, and the first sign-in of the mark it replaces)
 * and the cookie carries it first, with the browser's marks of other accounts after it.
 */
export async function rotateMark(
  ctx: AppContext,
  reply: FastifyReply,
  marks: readonly DeviceMark[],
  userId: string,
): Promise<void> {
  const now = ctx.clock.now().getTime();
  const previous = marks.filter((m) => m.userId === userId).map((m) => sha256(m.nonce));
  let firstSeen = now;
  if (previous.length) {
    const replaced = await ctx.db
      .deleteFrom('sign_in_devices')
      .where('user_id', '=', userId)
      .where('kind', '=', MARK_KIND)
      .where('value_hash', 'in', previous)
      .returning(['first_seen', 'last_seen'])
      .execute();
    // A browser trusted since its first sign-in stays so on the security page; a mark that no longer counted (or was
    // forgotten, so it is gone) starts afresh.
    for (const r of replaced) if (r.last_seen > now - MARK_TTL_MS) firstSeen = Math.min(firstSeen, r.first_seen);
  }
  const mark: DeviceMark = { userId, nonce: randomSecret(18) };
  const { info } = describeBrowser(reply.request.headers['user-agent']);
  await ctx.db
    .insertInto('sign_in_devices')
    .values({
      user_id: userId,
      kind: MARK_KIND,
      value_hash: sha256(mark.nonce),
      first_seen: firstSeen,
      last_seen: now,
      browser_name: info.name?.slice(0, 64) ?? null,
      browser_version: info.version?.slice(0, 16) ?? null,
      browser_os: info.os?.slice(0, 64) ?? null,
    })
    .execute();
  const key = await serviceSecret(ctx.db, ctx.clock, SECRET_NAME);
  const kept = [mark, ...marks.filter((m) => m.userId !== userId)].slice(0, MARKS_PER_BROWSER);
  const value = kept.map((m) => `${m.userId}.${m.nonce}.${hmac(key, signed(m))}`).join('~');
  reply.setCookie(deviceCookieName(ctx.secureCookies), value, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: ctx.secureCookies,
    maxAge: Math.floor(MARK_TTL_MS / 1000),
  });
}
