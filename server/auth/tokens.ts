import type { SessionUser } from '../context';

// What the core knows of personal access tokens without a database: the prefix (log redaction, tokens
// in URLs), scope matching, and the interface the open-API authentication calls. Issuing, verifying and
// deleting tokens (SQL on personal_access_tokens) live in the access-tokens slice, which provides
// `ctx.tokenAuth`.

/** Recognisable prefix of personal access tokens (secret scanners and people can spot a leaked one). */
export const TOKEN_PREFIX = 'pt-';

/**
 * Outcome of checking a presented token. A token that names a row (valid, or expired) carries its id, owner and name,
 * so the pipeline can record the use (ctx.credentialUses) once it knows the outcome of the scope and tenant checks.
 */
export type VerifyTokenResult =
  | { ok: true; tokenId: string; scopes: string[]; user: SessionUser; name?: string }
  | { ok: false; reason: 'malformed' | 'unknown' }
  | { ok: false; reason: 'expired'; tokenId: string; userId: string; name: string };

/** Verifies a presented token for the open API; implemented by a slice (`provides.tokenAuth`), absent otherwise. */
export interface TokenAuthenticator {
  /**
   * Shape, checksum, digest lookup and expiry; keeps the token's own last-use time (throttled, outlives the 90 days
   * of recorded uses). Recording the use itself (address, client, outcome) is the pipeline's.
   */
  verify(token: string): Promise<VerifyTokenResult>;
}

/**
 * Whether granted scopes cover a required one. Scopes are `area:resource:operation`
 * (e.g. `base:user:read`); a granted prefix covers everything below it, and `write` implies `read`.
 */
export function hasScope(granted: string[], required: string): boolean {
  const req = required.split(':');
  return granted.some((g) => {
    const parts = g.split(':');
    if (parts.length > req.length) return false;
    return parts.every((p, i) => p === req[i] || (i === req.length - 1 && p === 'write' && req[i] === 'read'));
  });
}
