import { fetchMyIdentities, type IdentitiesAnswer, type Identity } from '../../src/core/identities';
import type { RequestClient } from '../../src/core/request';
import { annotate, ResourceStore } from '../../src/core/stores/resource';
import type { StoreFactory } from '../../src/core/stores/root';
import { hasStrings, isListOf, isRecord } from '../../src/core/shape';

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
const createThirdPartyStore: StoreFactory<ThirdPartyStore> = (core) => {
  const store = new ThirdPartyStore(core.client);
  // The third-party page's first render has the bindings from the page (else the page's load asks for them).
  const brought = (core.pageData('third-party') as { identities?: unknown } | null | undefined)?.identities;
  if (isIdentitiesAnswer(brought)) store.seed(brought);
  return store;
};
export default createThirdPartyStore;

/** The bindings as the service answers them (what the page brought is checked before the page shows it). */
export function isIdentitiesAnswer(v: unknown): v is IdentitiesAnswer {
  return (
    isRecord(v) &&
    isListOf(v.results, (i) => hasStrings(i, ['id', 'provider', 'credential', 'open_id', 'name', 'created_at']))
  );
}
