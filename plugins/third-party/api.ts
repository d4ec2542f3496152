import type { RequestClient } from '../../src/core/request';

/** Kinds of external account. */
export type IdentityProvider = 'dingtalk' | 'feishu' | 'api' | 'idp';

/** One binding of the user to an external account. */
export interface Identity {
  id: string;
  provider: IdentityProvider;
  /** Key of the credential (app / identity source) the account belongs to. */
  credential: string;
  /** The account id at the provider, shown as 'synchronized account {openId}'. */
  open_id: string;
  name: string;
  created_at: string;
}

/** Calls of the third-party section (silent: the page shows 'the system is abnormal' itself). */
export function thirdPartyApi(client: RequestClient) {
  return {
    /** The user's bindings (`results`). */
    identities: () =>
      client.get<{ results: Identity[] }>('/individual/proxy/my/identities', undefined, { silent: true }),
  };
}
