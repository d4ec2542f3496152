import type { IdentitiesAnswer } from '../../schemas/identities';
import type { RequestClient } from './request';

export type { Identity, IdentityProvider, IdentitiesAnswer } from '../../schemas/identities';

/** Where the user's external-account bindings are read; one core route shared by several sections. */
export const MY_IDENTITIES_URL = '/individual/proxy/my/identities';

/** The user's bindings to external accounts (third-party directories, API sync, identity sources), in `results`. */
export function fetchMyIdentities(client: RequestClient) {
  return client.get<IdentitiesAnswer>(MY_IDENTITIES_URL);
}
