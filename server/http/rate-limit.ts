import type { AppContext } from '../context';
import { AppError } from '../errors';
import type { MessageCode } from '../i18n/index';

/** One limit: at most `limit` requests per `windowMs` under a key (`<name>:<subject>`). */
export interface LimitRule {
  key: string;
  limit: number;
  windowMs: number;
}

/**
 * Counts this request against a limit shared by every instance; over it, throws a 429 with `Retry-After`
 * (seconds until the window ends) and the catalogue's "try again in one minute" (or the code given).
 */
export async function enforceLimit(
  ctx: AppContext,
  rule: LimitRule,
  code: MessageCode = 'TooManyRequestsMinute',
): Promise<void> {
  const hit = await ctx.rateLimits.hit(rule.key, rule.limit, rule.windowMs);
  if (hit.allowed) return;
  const seconds = Math.max(1, Math.ceil((hit.resetAt - ctx.clock.now().getTime()) / 1000));
  throw new AppError(429, code, {}, { 'retry-after': String(seconds) });
}

/** Lookups that tell whether an account exists (check with a pass, recovery start) one address may make a minute. */
export const ACCOUNT_LOOKUPS_PER_MINUTE = 10;

/** The shared limit of account lookups from a client address (the check and the recovery start count together). */
export const accountLookupLimit = (ip: string): LimitRule => ({
  key: `account-lookup:ip:${ip}`,
  limit: ACCOUNT_LOOKUPS_PER_MINUTE,
  windowMs: 60_000,
});
