import { fetchMyIdentities, type IdentitiesAnswer, type Identity } from '../../src/core/identities';
import type { RequestClient } from '../../src/core/request';
import { annotate, ResourceStore } from '../../src/core/stores/resource';
import type { StoreFactory } from '../../src/core/stores/root';

/** The user's third-party bindings; `failed` makes the page say 'the system is abnormal, please retry'. */
export class ThirdPartyStore extends ResourceStore<IdentitiesAnswer> {
  constructor(private readonly client: RequestClient) {
    // The page shows a skeleton until the first fetch settles.
    super({ empty: { results: [] }, loading: true });
    annotate<ThirdPartyStore>(this, { computed: ['credentials'] });
  }

  /** Bindings as answered (`results`); empty on failure. */
  get identities(): Identity[] {
    return this.data.results;
  }

  /** Bindings keyed by each item's credential, so an entry finds its account in one lookup. */
  get credentials(): Record<string, Identity> {
    return Object.fromEntries(this.identities.map((i) => [i.credential, i]));
  }

  /** All bindings (the core identities route). */
  protected fetch() {
    return fetchMyIdentities(this.client);
  }
}

/** Built when the section first asks for it (`useStore('thirdParty')`). */
const createThirdPartyStore: StoreFactory<ThirdPartyStore> = (core) => new ThirdPartyStore(core.client);
export default createThirdPartyStore;
