import type { RequestClient } from '../../src/core/request';

/** A binding as the identities call answers it; this section shows the identity-provider ones. */
export interface IdentityBinding {
  id: string;
  provider: string;
  credential: string;
  open_id: string;
  /** Name of the identity source. */
  name: string;
  created_at: string;
}

/** Calls of the identity-provider section (silent: the page shows its own failure). */
export function identityProviderApi(client: RequestClient) {
  return {
    /** All bindings of the user (`results`); identity sources have provider `idp`. */
    identities: () =>
      client.get<{ results: IdentityBinding[] }>('/individual/proxy/my/identities', undefined, { silent: true }),
  };
}
