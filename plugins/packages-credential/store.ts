import { makeAutoObservable, runInAction } from 'mobx';
import type { RequestClient } from '../../src/core/request';
import { packagesCredentialApi, type PackagesUserInfo } from './api';

/** The artifact-repository credential and its reset. */
export class PackagesCredentialStore {
  /** True until the first fetch settles (success or failure). */
  loading = true;
  /** Username and password state; null when the fetch failed. */
  info: PackagesUserInfo | null = null;
  /** The fetch failed; the page says so. */
  failed = false;
  /** A reset is in flight. */
  resetting = false;
  /** The password just set, shown once; cleared when the screen is left or it was copied. */
  newPassword: string | null = null;
  private api: ReturnType<typeof packagesCredentialApi>;

  constructor(client: RequestClient) {
    this.api = packagesCredentialApi(client);
    makeAutoObservable<PackagesCredentialStore, 'api'>(this, { api: false });
  }

  /** Fetches the account; loading stops on success and on failure. */
  async load(): Promise<void> {
    this.loading = true;
    const [error, info] = await this.api.userInfo();
    runInAction(() => {
      this.loading = false;
      this.failed = !!error;
      this.info = error ? null : info;
    });
  }

  /** Resets the password; true when done (the new one is in `newPassword`). */
  async reset(): Promise<boolean> {
    this.resetting = true;
    const [error, result] = await this.api.resetPassword();
    runInAction(() => {
      this.resetting = false;
      if (error) return;
      const { password, ...info } = result;
      this.info = info;
      this.newPassword = password;
    });
    return !error;
  }

  /** Forgets the shown password (copied, or the screen was left). */
  forgetPassword(): void {
    this.newPassword = null;
  }
}
