/** Redirect safety: only http(s) URLs to whitelisted hosts, or same-origin paths, ever leave this module. */

/** Where an unsafe redirect goes instead. */
export const DEFAULT_REDIRECT_FALLBACK = '/';

// Control characters and whitespace are stripped or reinterpreted by browsers (`\t//evil` → `//evil`),
// and backslashes count as slashes in http(s) URLs (`/\evil` → `//evil`); we refuse them outright.
// eslint-disable-next-line no-control-regex -- matching control characters is the point: they are refused
const UNSAFE_CHARS = /[\u0000-\u0020\u007f-\u00a0\u1680\u2000-\u200f\u2028\u2029\u202f\u205f\u3000\ufeff\\]/;
const ABSOLUTE_HTTP = /^https?:\/\//i;

/** Lower-cases a whitelist entry and drops any port or scheme, so 'Host.com:8080' matches 'host.com'. */
export function normalizeHost(host: string): string {
  let h = host.trim().toLowerCase();
  h = h.replace(/^[a-z][a-z0-9+.-]*:\/\//, '').replace(/\/.*$/, '');
  if (h.startsWith('[')) return h.replace(/\](:\d+)?$/, ']');
  return h.replace(/:\d+$/, '').replace(/\.$/, '');
}

/** Exact or subdomain match, so `a.host.com` passes for `host.com` but `host.com.evil.com` does not. */
export function isHostAllowed(hostname: string, allowedHosts: readonly string[]): boolean {
  const h = normalizeHost(hostname);
  if (!h) return false;
  return allowedHosts.some((entry) => {
    const a = normalizeHost(entry);
    return !!a && (h === a || h.endsWith(`.${a}`));
  });
}

/** True for an absolute http(s) URL whose host is whitelisted and which carries no userinfo. */
export function isSafeUrl(url: string, allowedHosts: readonly string[]): boolean {
  if (typeof url !== 'string' || !url || UNSAFE_CHARS.test(url) || !ABSOLUTE_HTTP.test(url)) return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  // `https://host@evil` puts "host" in userinfo and goes to evil: any @ in the authority is refused.
  const authority = url.replace(ABSOLUTE_HTTP, '').split(/[/?#]/)[0];
  if (authority.includes('@') || parsed.username || parsed.password) return false;
  return isHostAllowed(parsed.hostname, allowedHosts);
}

/** True for a path on the current origin: one leading slash, no scheme, no `//` or `/\` authority trick, even once decoded. */
export function isSameOriginPath(path: string): boolean {
  if (typeof path !== 'string' || !path.startsWith('/') || path.startsWith('//') || UNSAFE_CHARS.test(path))
    return false;
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return false;
  }
  return !decoded.startsWith('//') && !UNSAFE_CHARS.test(decoded.slice(0, 2));
}

/** Options of `safeRedirect`. */
export interface SafeRedirectOptions {
  /** The page's own host; always whitelisted. */
  currentHost: string;
  /** Further hosts redirects may go to (e.g. the target app's host). */
  allowedHosts?: readonly string[];
  /** Returned when the target is unsafe or missing. */
  fallback?: string;
}

/** Returns the target when it is a same-origin path or a whitelisted http(s) URL, else the fallback. */
export function safeRedirect(target: string | null | undefined, options: SafeRedirectOptions): string {
  const fallback = options.fallback ?? DEFAULT_REDIRECT_FALLBACK;
  if (typeof target !== 'string' || !target) return fallback;
  if (isSameOriginPath(target)) return target;
  const hosts = [options.currentHost, ...(options.allowedHosts ?? [])].filter(Boolean);
  return isSafeUrl(target, hosts) ? new URL(target).href : fallback;
}
