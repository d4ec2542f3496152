/**
 * Plain rules of directory and third-party sign-in shared by the web and the service (no imports: web code may
 * import these values; the TypeBox shape of the page config's `signIn` is in sign-in.ts).
 */

/** Directory kinds: OpenLDAP-style LDAP and Windows Active Directory. */
export const DIRECTORY_KINDS = ['ldap', 'ad'] as const;
/** One directory kind. */
export type DirectoryKind = (typeof DIRECTORY_KINDS)[number];

/** Third-party sign-in providers (OAuth 2.0 authorisation code with PKCE). */
export const OAUTH_PROVIDERS = ['dingtalk', 'lark', 'wecom'] as const;
/** One third-party provider. */
export type OAuthProvider = (typeof OAUTH_PROVIDERS)[number];

/** The four third-party sign-in failures, each a page under `/login/errors`. */
export const LOGIN_ERROR_TYPES = ['notSupported', 'notBound', 'noAccountInfo', 'loginFailed'] as const;
/** One third-party sign-in failure. */
export type LoginErrorType = (typeof LOGIN_ERROR_TYPES)[number];

/** Where a failed third-party sign-in lands: `/login/errors?type=…&provider=…`. */
export const LOGIN_ERRORS_PATH = '/login/errors';

/** The failure page of a third-party sign-in. */
export function loginErrorPath(type: LoginErrorType, provider?: OAuthProvider): string {
  const q = new URLSearchParams({ type });
  if (provider) q.set('provider', provider);
  return `${LOGIN_ERRORS_PATH}?${q.toString()}`;
}

/** Where the browser goes to start a third-party sign-in (a redirect to the provider); `next` is validated later. */
export function oauthStartPath(provider: OAuthProvider, next?: string | null): string {
  return `/login/oauth/${provider}${next ? `?next=${encodeURIComponent(next)}` : ''}`;
}

/** Where the provider sends the browser back (the redirect URI registered at the provider, after PUBLIC_URL). */
export function oauthCallbackPath(provider: OAuthProvider): string {
  return `/login/oauth/${provider}/callback`;
}
