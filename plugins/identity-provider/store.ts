import { makeAutoObservable, runInAction } from 'mobx';
import type { RequestClient } from '../../src/core/request';
import { identityProviderApi, type IdentityBinding } from './api';

/** The identity sources the user is bound to. */
export class IdentityProvidersStore {
  /** True until the first fetch settles (success or failure). */
  loading = true;
  /** The fetch failed: the page says the system is abnormal. */
  failed = false;
  /** Identity-source bindings only; empty on failure. */
  bindings: IdentityBinding[] = [];
  private api: ReturnType<typeof identityProviderApi>;

  constructor(client: RequestClient) {
    this.api = identityProviderApi(client);
    makeAutoObservable<IdentityProvidersStore, 'api'>(this, { api: false });
  }

  /** Fetches the bindings; loading stops on success and on failure. */
  async load(): Promise<void> {
    this.loading = true;
    const [error, result] = await this.api.identities();
    runInAction(() => {
      this.loading = false;
      this.failed = !!error;
      this.bindings = error ? [] : result.results.filter((r) => r.provider === 'idp');
    });
  }
}
