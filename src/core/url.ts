/**
 * Redirect safety in the web: the service's redirect rule (schemas/redirect-rule.ts), applied with the page's own
 * origin. Only same-origin paths and http(s) URLs on exactly this origin or a listed one ever leave this module.
 */
import { listedRedirectOrigins, safeNextTarget, safeRedirectPath } from '../../schemas/redirect-rule';

/** Where an unsafe redirect goes instead. */
export const DEFAULT_REDIRECT_FALLBACK = '/';

/** True for a path on the current origin: one leading slash, no scheme, no `//` or `/\` authority trick, even once decoded. */
export function isSameOriginPath(path: string): boolean {
  return safeRedirectPath(path) !== null;
}

/** The exact origins (`https://host[:port]`) of the absolute http(s) addresses among `urls`; paths are skipped. */
export function originsOf(urls: readonly (string | null | undefined)[]): string[] {
  return listedRedirectOrigins(urls);
}

/** Options of `safeRedirect`. */
export interface SafeRedirectOptions {
  /** The page's own origin (`window.location.origin`): the only origin besides `allowedOrigins` a target may name. */
  origin: string;
  /** Further exact origins redirects may go to (e.g. the edition's application addresses). */
  allowedOrigins?: readonly string[];
  /** Returned when the target is unsafe or missing. */
  fallback?: string;
}

/** The normalised target when the redirect rule accepts it (a same-origin path or an URL on an allowed origin), else the fallback. */
export function safeRedirect(target: string | null | undefined, options: SafeRedirectOptions): string {
  const fallback = options.fallback ?? DEFAULT_REDIRECT_FALLBACK;
  return safeNextTarget(target, { origin: options.origin, allowedOrigins: options.allowedOrigins }) ?? fallback;
}
