import { runInAction } from 'mobx';
import type { RequestClient, RequestError } from '../../src/core/request';
import { failureOf, type Failure } from '../../src/core/stores/failure';
import { annotate, SectionStore } from '../../src/core/stores/resource';
import type { StoreFactory } from '../../src/core/stores/root';
import { loginApi } from './api';

/** Server error codes the page explains with its own catalogue; others show the server's message. */
export const LOGIN_ERROR_MESSAGES: Readonly<Record<string, string>> = {
  AccountOrPasswordIncorrect: 'login.error.incorrect',
  AccountLocked: 'login.error.locked',
};

const failure = (error: RequestError) => failureOf(error, LOGIN_ERROR_MESSAGES, 'login.error.network');

/** Sign-in flow: credentials → (forced password change) → done. `saving` is on while a call is in flight. */
export class LoginStore extends SectionStore {
  /** What went wrong last, shown above the form (none for a ≥ 500: the central notice shows it). */
  failure: Failure | null = null;
  /** Set after a sign-in of a flagged account: the change-password step shows. */
  pendingChange: { csrfToken: string; oldPassword: string } | null = null;
  /** The flow finished; the page leaves for the next URL. */
  done = false;
  private readonly api: ReturnType<typeof loginApi>;

  constructor(client: RequestClient) {
    super();
    this.api = loginApi(client);
    annotate<LoginStore>(this, {
      observable: ['failure', 'pendingChange', 'done'],
      action: ['signIn', 'changePassword'],
    });
  }

  /** Signs in; on success either finishes or asks for the forced password change. */
  async signIn(username: string, password: string): Promise<void> {
    this.failure = null;
    const r = await this.saveWith(this.api.login(username.trim(), password), {
      failure,
      apply: (result) => {
        if (result.must_change_password) this.pendingChange = { csrfToken: result.csrf_token, oldPassword: password };
        else this.done = true;
      },
    });
    if (!r.ok) runInAction(() => (this.failure = r.failure ?? null));
  }

  /** Completes the forced change with the password just used as the old one. */
  async changePassword(newPassword: string): Promise<void> {
    if (!this.pendingChange) return;
    this.failure = null;
    const { csrfToken, oldPassword } = this.pendingChange;
    const r = await this.saveWith(this.api.changePassword(csrfToken, newPassword, oldPassword), {
      failure,
      apply: () => (this.done = true),
    });
    if (!r.ok) runInAction(() => (this.failure = r.failure ?? null));
  }
}

/** Built when the sign-in page first asks for it (`useStore('login')`). */
const createLoginStore: StoreFactory<LoginStore> = (core) => new LoginStore(core.client);
export default createLoginStore;
