import ipaddr from 'ipaddr.js';
import { DEFAULT_IPV6_PREFIX_LENGTH } from '../config';
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

/**
 * What a client address counts as for limits: an IPv4 address as itself (/32; an IPv4-mapped IPv6 address is its
 * IPv4 address), an IPv6 address as its network of `prefixLength` bits (`2001:db8:1:2::/64`), so a client holding a
 * whole /64 has one budget, not 2^64. Anything else (not an IP address) as it is.
 */
export function clientNetwork(ip: string, prefixLength: number = DEFAULT_IPV6_PREFIX_LENGTH): string {
  if (!ipaddr.isValid(ip)) return ip;
  const addr = ipaddr.process(ip);
  if (addr.kind() === 'ipv4') return addr.toString();
  const bytes = addr.toByteArray();
  for (let bit = prefixLength; bit < 128; bit++) bytes[bit >> 3] &= ~(0x80 >> (bit & 7));
  return `${ipaddr.fromByteArray(bytes).toString()}/${prefixLength}`;
}

/**
 * The subject of a client address's limits and throttles (`<name>:ip:<subject>`): its network by the configured
 * IPv6 prefix length (IPV6_PREFIX_LENGTH). Every counter keyed by the client address goes through here.
 */
export function addressSubject(ctx: Pick<AppContext, 'config'>, ip: string): string {
  return clientNetwork(ip, ctx.config.ipv6PrefixLength ?? DEFAULT_IPV6_PREFIX_LENGTH);
}

/** Lookups that tell whether an account exists (check with a pass, recovery start) one address may make a minute. */
export const ACCOUNT_LOOKUPS_PER_MINUTE = 10;

/** The shared limit of account lookups from a client address (the check and the recovery start count together). */
export const accountLookupLimit = (ctx: Pick<AppContext, 'config'>, ip: string): LimitRule => ({
  key: `account-lookup:ip:${addressSubject(ctx, ip)}`,
  limit: ACCOUNT_LOOKUPS_PER_MINUTE,
  windowMs: 60_000,
});
