// The core's view of the browsers the smart lockout trusts for an account (the device marks): the slice that makes
// and checks the marks (login) implements it through `ServerProvides.trustedBrowsers`; another slice (the security
// page) lists and forgets them as `ctx.trustedBrowsers` and never imports the login slice. Never a mark's nonce nor
// its digest leaves it: a trusted browser is named by an id derived one-way from the digest.
import type { FastifyRequest } from 'fastify';
import type { BrowserInfo } from '../events';

/** One browser that carries a current mark of the account. */
export interface TrustedBrowserRecord {
  /** Its public id (32 hex characters), for the list and the forget call. */
  id: string;
  /** What the browser was when it was last marked; each part null when unknown (marks from before it was noted). */
  browser: BrowserInfo;
  /** Epoch ms of the first sign-in that marked this browser (kept across the mark's renewals). */
  firstUsedAt: number;
  /** Epoch ms of its latest sign-in. */
  lastUsedAt: number;
  /** True when the request asking is from this very browser (it carries the mark). */
  current: boolean;
}

/** The account's trusted browsers; implemented by a slice, absent (null) otherwise. */
export interface TrustedBrowsers {
  /** The account's browsers whose mark still counts, most recently used first; `req` tells which one asks. */
  list(userId: string, req: FastifyRequest): Promise<TrustedBrowserRecord[]>;
  /**
   * Forgets one of the account's browsers: its mark stops counting at once (the lockout treats it as a stranger
   * until it signs in again). False when the account has no such browser (someone else's id included).
   */
  forget(userId: string, id: string): Promise<boolean>;
}
