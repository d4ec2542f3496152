import { action, computed, makeObservable, observable } from 'mobx';
import { fetchMyIdentities, type Identity } from '../../src/core/identities';
import type { RequestClient } from '../../src/core/request';
import { ResourceStore } from '../../src/core/stores/resource';
import type { StoreFactory } from '../../src/core/stores/root';

/** The user's third-party bindings; `failed` makes the page say 'the system is abnormal, please retry'. */
export class ThirdPartyStore extends ResourceStore {
  /** Bindings as answered (`results`); empty on failure. */
  identities: Identity[] = [];

  constructor(private readonly client: RequestClient) {
    // The page shows a skeleton until the first fetch settles.
    super({ loading: true });
    makeObservable<ThirdPartyStore>(this, { identities: observable, credentials: computed, load: action });
  }

  /** Bindings keyed by each item's credential, so an entry finds its account in one lookup. */
  get credentials(): Record<string, Identity> {
    return Object.fromEntries(this.identities.map((i) => [i.credential, i]));
  }

  /** Fetches the bindings; loading stops on success and on failure. */
  async load(): Promise<void> {
    await this.loadWith(
      fetchMyIdentities(this.client),
      (answer) => (this.identities = answer.results),
      () => (this.identities = []),
    );
  }
}

/** Built when the section first asks for it (`useStore('thirdParty')`). */
const createThirdPartyStore: StoreFactory<ThirdPartyStore> = (core) => new ThirdPartyStore(core.client);
export default createThirdPartyStore;
