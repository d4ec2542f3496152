/**
 * Plain values of re-authentication shared by the web and the service (no imports: web code may import these; the
 * TypeBox shapes are in reauth.ts, which re-exports these).
 */

/** The error code of a sensitive call made without a fresh proof. */
export const REAUTH_REQUIRED = 'ReauthRequired';

/** The paths: state and password proof (`my`), and the provider round trip (a page: `?next=` a local path). */
export const REAUTH_PATHS = {
  my: '/users/ajax/v1/my/reauth',
  provider: '/users/reauth/oauth/:provider',
} as const;

/** The provider round trip's address for `provider`, returning to `next` (a local path of this service). */
export function reauthProviderPath(provider: string, next: string): string {
  return `${REAUTH_PATHS.provider.replace(':provider', encodeURIComponent(provider))}?next=${encodeURIComponent(next)}`;
}
