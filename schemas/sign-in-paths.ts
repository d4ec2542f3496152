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

/** True for a provider name this code knows (a path or query value). */
export function isOAuthProvider(v: string | null | undefined): v is OAuthProvider {
  return !!v && (OAUTH_PROVIDERS as readonly string[]).includes(v);
}

/** The four third-party sign-in failures, each a page under `/login/errors`. */
export const LOGIN_ERROR_TYPES = ['notSupported', 'notBound', 'noAccountInfo', 'loginFailed'] as const;
/** One third-party sign-in failure. */
export type LoginErrorType = (typeof LOGIN_ERROR_TYPES)[number];

/** True for a failure page type (a `?type=` value). */
export function isLoginErrorType(v: string | null | undefined): v is LoginErrorType {
  return !!v && (LOGIN_ERROR_TYPES as readonly string[]).includes(v);
}

/** What an organisation id looks like where a sign-in names one (`?org=` on the login page, `org_id` in the body). */
export const ORG_ID_PATTERN = '^[A-Za-z0-9_-]{1,32}$';

/** The organisation id of a `?org=` value, or undefined when it does not look like one. */
export function orgIdFrom(v: string | null | undefined): string | undefined {
  return v && new RegExp(ORG_ID_PATTERN).test(v) ? v : undefined;
}

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
