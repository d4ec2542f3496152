import { action, makeObservable, observable } from 'mobx';
import type { RequestClient } from '../../src/core/request';
import { failureOf, type ActionResult } from '../../src/core/stores/failure';
import { ResourceStore } from '../../src/core/stores/resource';
import type { StoreFactory } from '../../src/core/stores/root';
import { packagesCredentialApi } from './api';
import type { PackagesUserInfo } from './contract';

/** The artifact-repository credential and its reset. */
export class PackagesCredentialStore extends ResourceStore {
  /** Username and password state; null when the fetch failed. */
  info: PackagesUserInfo | null = null;
  /** A reset is in flight. */
  resetting = false;
  /** The password just set, shown once; cleared when the screen is left or it was copied. */
  newPassword: string | null = null;
  private readonly api: ReturnType<typeof packagesCredentialApi>;

  constructor(client: RequestClient) {
    // The page shows a skeleton until the first fetch settles.
    super({ loading: true });
    this.api = packagesCredentialApi(client);
    makeObservable<PackagesCredentialStore>(this, {
      info: observable,
      resetting: observable,
      newPassword: observable,
      load: action,
      reset: action,
      forgetPassword: action,
    });
  }

  /** Fetches the account; loading stops on success and on failure. */
  async load(): Promise<void> {
    await this.loadWith(
      this.api.userInfo(),
      (info) => (this.info = info),
      () => (this.info = null),
    );
  }

  /** Resets the password; when done the new one is in `newPassword`. The page always says 'reset failed' itself. */
  reset(): Promise<ActionResult> {
    return this.saveWith(this.api.resetPassword(), {
      busy: (on) => (this.resetting = on),
      failure: (error) => failureOf(error, {}, 'packages-credential.reset.failed', { serviceText: false }),
      apply: ({ password, ...info }) => {
        this.info = info;
        this.newPassword = password;
      },
    });
  }

  /** Forgets the shown password (copied, or the screen was left). */
  forgetPassword(): void {
    this.newPassword = null;
  }
}

/** Built when the section first asks for it (`useStore('packagesCredential')`). */
const createPackagesCredentialStore: StoreFactory<PackagesCredentialStore> = (core) =>
  new PackagesCredentialStore(core.client);
export default createPackagesCredentialStore;
