import type { DirectoryKind, LoginErrorType, OAuthProvider } from '../contract';

// The records below are keyed by the shared types (schemas/sign-in-paths.ts), so a kind, provider or failure added
// there is a compile error here until the page handles it.

/** Each third-party provider's name, as a message id of this slice. */
export const PROVIDER_NAME_IDS: Readonly<Record<OAuthProvider, string>> = {
  dingtalk: 'login.provider.dingtalk',
  lark: 'login.provider.lark',
  wecom: 'login.provider.wecom',
};

/** Each directory tab's label and its account field's label. */
export const DIRECTORY_LABEL_IDS: Readonly<Record<DirectoryKind, { tab: string; account: string }>> = {
  ldap: { tab: 'login.tab.ldap', account: 'login.username.ldap' },
  ad: { tab: 'login.tab.ad', account: 'login.username.ad' },
};

/** The failure page types, for checking a `?type=` value. */
export const LOGIN_ERROR_TYPE_SET: Readonly<Record<LoginErrorType, true>> = {
  notSupported: true,
  notBound: true,
  noAccountInfo: true,
  loginFailed: true,
};

/** A provider this bundle knows, from a query value. */
export function isOAuthProvider(v: string | null | undefined): v is OAuthProvider {
  return !!v && Object.hasOwn(PROVIDER_NAME_IDS, v);
}

/** Where the browser goes to start a third-party sign-in. */
export { oauthStartPath } from '../../../schemas/sign-in-paths';

/** An organisation id the service accepts in `org_id` (the login page's `?org=`); anything else is not sent. */
export function orgIdFrom(v: string | null): string | undefined {
  return v && /^[A-Za-z0-9_-]{1,32}$/.test(v) ? v : undefined;
}
