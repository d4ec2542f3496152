import { fetchMyIdentities, type IdentitiesAnswer, type Identity } from '../../src/core/identities';
import type { RequestClient } from '../../src/core/request';
import { annotate, ResourceStore } from '../../src/core/stores/resource';
import type { StoreFactory } from '../../src/core/stores/root';

/** The identity sources the user is bound to; `failed` makes the page say the system is abnormal. */
export class IdentityProvidersStore extends ResourceStore<IdentitiesAnswer> {
  constructor(private readonly client: RequestClient) {
    // The page shows a skeleton until the first fetch settles.
    super({ empty: { results: [] }, loading: true });
    annotate<IdentityProvidersStore>(this, { computed: ['bindings'] });
  }

  /** Identity-source bindings only (provider `idp`); empty on failure. */
  get bindings(): Identity[] {
    return this.data.results.filter((r) => r.provider === 'idp');
  }

  /** All bindings (the core identities route); `bindings` keeps the identity sources. */
  protected fetch() {
    return fetchMyIdentities(this.client);
  }
}

/** Built when the section first asks for it (`useStore('identityProviders')`). */
const createIdentityProvidersStore: StoreFactory<IdentityProvidersStore> = (core) =>
  new IdentityProvidersStore(core.client);
export default createIdentityProvidersStore;
