/**
 * The redirect rule, once for the service (logout's `next`) and the web (sign-in's `next`, the chooser's `nextUrl`,
 * the app jump). No imports: safe in any bundle.
 *
 * A target is either
 * - a path on the current origin: exactly one leading `/`, no `//` or `/\` authority trick (also once or twice
 *   percent-decoded), no control, whitespace, bidi or backslash characters; dot segments resolved; or
 * - an absolute http(s) URL whose exact origin (scheme, host, port after WHATWG parsing, default ports dropped)
 *   is the given origin or one of the allowed origins; no userinfo.
 * What comes out is normalised and ASCII only (non-ASCII percent-encoded), so it is safe in a Location header.
 */

/** Longest target accepted, in characters (as given). */
export const REDIRECT_TARGET_MAX = 2048;
/** Longest normalised target handed out (percent-encoding can triple a character's length). */
export const REDIRECT_OUTPUT_MAX = 8192;

// Control characters and whitespace are stripped or reinterpreted by browsers (`\t//evil` → `//evil`), backslashes
// count as slashes in http(s) URLs (`/\evil` → `//evil`), bidi controls disguise what a link shows: all refused.
// eslint-disable-next-line no-control-regex -- matching control characters is the point: they are refused
const UNSAFE_CHARS = /[\u0000-\u0020\u007f-\u00a0\u1680\u2000-\u200f\u2028-\u202f\u205f\u2066-\u2069\u3000\ufeff\\]/;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
// The dummy base only resolves dot segments; its origin never reaches the output.
const PATH_BASE = 'http://path.invalid';

/** Where a redirect may go besides paths: the origin and further origins (both `scheme://host[:port]`). */
export interface RedirectScope {
  /** The current origin (PUBLIC_URL's, the page's); absent or null: only paths are accepted. */
  origin?: string | null;
  /** Further exact origins, e.g. of the edition's application addresses. */
  allowedOrigins?: readonly string[];
}

/** Decodes `%XX` byte by byte (never throws), so `%2F`, `%5C` and `%09` show as what they stand for. */
function decodeBytes(text: string): string {
  return text.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** True when the start of a path, as given or decoded up to twice, would be read as an authority or is unsafe. */
function authorityTrick(path: string): boolean {
  let text = path;
  for (let round = 0; round < 3; round++) {
    if (text[0] !== '/' || text[1] === '/' || text[1] === '\\' || UNSAFE_CHARS.test(text.slice(0, 2))) return true;
    const decoded = decodeBytes(text);
    if (decoded === text) return false;
    text = decoded;
  }
  return false;
}

/** The normalised same-origin path (`/a/../b` → `/b`, non-ASCII percent-encoded), or null when it is not one. */
export function safeRedirectPath(path: unknown): string | null {
  if (typeof path !== 'string' || !path || path.length > REDIRECT_TARGET_MAX || UNSAFE_CHARS.test(path)) return null;
  if (authorityTrick(path)) return null;
  let u: URL;
  try {
    u = new URL(path, PATH_BASE);
  } catch {
    return null;
  }
  if (u.origin !== PATH_BASE) return null;
  const out = u.pathname + u.search + u.hash;
  // Resolved dot segments may leave `//` in front (`/../..//evil`, `/.//evil`): that would name a host.
  if (authorityTrick(out) || out.length > REDIRECT_OUTPUT_MAX) return null;
  return out;
}

/** The exact origin of an absolute http(s) URL (`https://host[:port]`, default port dropped), else null. */
export function redirectOriginOf(url: unknown): string | null {
  if (typeof url !== 'string' || !SCHEME.test(url) || UNSAFE_CHARS.test(url)) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}

/** The origins of the absolute http(s) addresses among `urls` (paths and the rest are skipped), each once. */
export function listedRedirectOrigins(urls: readonly (string | null | undefined)[]): string[] {
  const origins = new Set<string>();
  for (const url of urls) {
    const origin = redirectOriginOf(url);
    if (origin) origins.add(origin);
  }
  return [...origins];
}

/** The normalised absolute URL when its exact origin is in scope and it carries no userinfo, else null. */
function safeAbsoluteTarget(next: string, scope: RedirectScope): string | null {
  const allowed = new Set(listedRedirectOrigins([scope.origin, ...(scope.allowedOrigins ?? [])]));
  if (!allowed.size || !SCHEME.test(next)) return null;
  // Any `@` before the path is userinfo (`https://origin@evil`, `https://evil@origin`): refused outright.
  const authority = next.replace(SCHEME, '').replace(/^\/*/, '').split(/[/?#]/)[0];
  if (authority.includes('@')) return null;
  let u: URL;
  try {
    u = new URL(next);
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  if (u.username || u.password || !allowed.has(u.origin)) return null;
  return u.href.length > REDIRECT_OUTPUT_MAX ? null : u.href;
}

/**
 * Where a `next` may lead: the normalised path or absolute URL, or null when the rule refuses it (use the default).
 * The scope's origin is the only host a target may name besides `allowedOrigins`; nothing else (the request's Host
 * header, subdomains, other ports or schemes) widens it.
 */
export function safeNextTarget(next: unknown, scope: RedirectScope = {}): string | null {
  if (typeof next !== 'string' || !next || next.length > REDIRECT_TARGET_MAX || UNSAFE_CHARS.test(next)) return null;
  if (next.startsWith('/')) return safeRedirectPath(next);
  return safeAbsoluteTarget(next, scope);
}
