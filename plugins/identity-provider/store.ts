import { action, makeObservable, observable } from 'mobx';
import { fetchMyIdentities, type Identity } from '../../src/core/identities';
import type { RequestClient } from '../../src/core/request';
import { ResourceStore } from '../../src/core/stores/resource';
import type { StoreFactory } from '../../src/core/stores/root';

/** The identity sources the user is bound to; `failed` makes the page say the system is abnormal. */
export class IdentityProvidersStore extends ResourceStore {
  /** Identity-source bindings only (provider `idp`); empty on failure. */
  bindings: Identity[] = [];

  constructor(private readonly client: RequestClient) {
    // The page shows a skeleton until the first fetch settles.
    super({ loading: true });
    makeObservable<IdentityProvidersStore>(this, { bindings: observable, load: action });
  }

  /** Fetches the bindings; loading stops on success and on failure. */
  async load(): Promise<void> {
    await this.loadWith(
      fetchMyIdentities(this.client),
      (answer) => (this.bindings = answer.results.filter((r) => r.provider === 'idp')),
      () => (this.bindings = []),
    );
  }
}

/** Built when the section first asks for it (`useStore('identityProviders')`). */
const createIdentityProvidersStore: StoreFactory<IdentityProvidersStore> = (core) =>
  new IdentityProvidersStore(core.client);
export default createIdentityProvidersStore;
