import type { DirectoryKind, OAuthProvider } from '../contract';

// The message ids of the sign-in methods. The records are keyed by the shared types (schemas/sign-in-paths.ts, which
// also holds the plain rules the pages use), so a kind or provider added there is a compile error here until the
// page names it.

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
