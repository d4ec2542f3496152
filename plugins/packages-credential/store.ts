import type { RequestClient } from '../../src/core/request';
import { failureOf, type ActionResult } from '../../src/core/stores/failure';
import { annotate, ResourceStore } from '../../src/core/stores/resource';
import type { StoreFactory } from '../../src/core/stores/root';
import { packagesCredentialApi } from './api';
import type { PackagesUserInfo } from './contract';
import type { LastUse } from '../../schemas/credential-uses';
import { isLastUse, isRecord, isStringOrNull } from '../../src/core/shape';

/** The artifact-repository credential and its reset. */
export class PackagesCredentialStore extends ResourceStore<PackagesUserInfo | null> {
  /** A reset is in flight. */
  resetting = false;
  /** The password just set, shown once; cleared when the screen is left or it was copied. */
  newPassword: string | null = null;
  private readonly api: ReturnType<typeof packagesCredentialApi>;

  constructor(client: RequestClient) {
    // The page shows a skeleton until the first fetch settles.
    super({ empty: null, loading: true });
    this.api = packagesCredentialApi(client);
    annotate<PackagesCredentialStore>(this, {
      observable: ['resetting', 'newPassword'],
      action: ['reset', 'forgetPassword'],
    });
  }

  /** Username and password state; null until loaded and when the fetch failed. */
  get info(): PackagesUserInfo | null {
    return this.data;
  }

  /** The password's last download let through (time, address, client); null when never or not loaded. */
  get lastUse(): LastUse | null {
    return this.data?.last_use ?? null;
  }

  /** The artifact account's username and password state. */
  protected fetch() {
    return this.api.userInfo();
  }

  /** Resets the password; when done the new one is in `newPassword`. The page always says 'reset failed' itself. */
  reset(): Promise<ActionResult> {
    return this.saveWith(this.api.resetPassword(), {
      busy: (on) => (this.resetting = on),
      failure: (error) => failureOf(error, {}, 'packages-credential.reset.failed', { serviceText: false }),
      apply: ({ password, ...info }) => {
        this.data = info;
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
const createPackagesCredentialStore: StoreFactory<PackagesCredentialStore> = (core) => {
  const store = new PackagesCredentialStore(core.client);
  // The credential page's first render has the account from the page (else the page's load asks for it).
  const brought = (core.pageData('packages-credential') as { info?: unknown } | null | undefined)?.info;
  if (isUserInfo(brought)) store.seed(brought);
  return store;
};
export default createPackagesCredentialStore;

/** The account as the service answers it (what the page brought is checked before the page shows it). */
export function isUserInfo(v: unknown): v is PackagesUserInfo {
  return (
    isRecord(v) &&
    Object.keys(v).length === 4 &&
    typeof v.username === 'string' &&
    typeof v.has_password === 'boolean' &&
    isStringOrNull(v.effective_at) &&
    (v.last_use === null || isLastUse(v.last_use))
  );
}
