import { makeAutoObservable, runInAction } from 'mobx';
import type { RequestClient } from '../../src/core/request';
import { thirdPartyApi, type Identity } from './api';

/** The user's third-party bindings. */
export class ThirdPartyStore {
  /** True until the first fetch settles (success or failure). */
  loading = true;
  /** The fetch failed: the page shows 'the system is abnormal, please retry'. */
  failed = false;
  /** Bindings as answered (`results`); empty on failure. */
  identities: Identity[] = [];
  private api: ReturnType<typeof thirdPartyApi>;

  constructor(client: RequestClient) {
    this.api = thirdPartyApi(client);
    makeAutoObservable<ThirdPartyStore, 'api'>(this, { api: false });
  }

  /** Bindings keyed by each item's credential, so an entry finds its account in one lookup. */
  get credentials(): Record<string, Identity> {
    return Object.fromEntries(this.identities.map((i) => [i.credential, i]));
  }

  /** Fetches the bindings; loading stops on success and on failure. */
  async load(): Promise<void> {
    this.loading = true;
    const [error, result] = await this.api.identities();
    runInAction(() => {
      this.loading = false;
      this.failed = !!error;
      this.identities = error ? [] : result.results;
    });
  }
}
