import { makeAutoObservable, runInAction } from 'mobx';
import type { RequestClient, RequestError } from '../../src/core/request';
import { loginApi } from './api';

/** Server error codes the page explains with its own catalogue; others show the server's message. */
export const LOGIN_ERROR_MESSAGES: Record<string, string> = {
  AccountOrPasswordIncorrect: 'login.error.incorrect',
  AccountLocked: 'login.error.locked',
};

/** A failure the page shows: a message id of ours, or the server's own text. */
export type LoginFailure = { id: string } | { text: string };

function failureOf(error: RequestError): LoginFailure {
  const data = (error.data ?? {}) as { code?: string; message?: string };
  if (data.code && LOGIN_ERROR_MESSAGES[data.code]) return { id: LOGIN_ERROR_MESSAGES[data.code] };
  if (error.status > 0 && data.message) return { text: data.message };
  return { id: 'login.error.network' };
}

/** Sign-in flow: credentials → (forced password change) → done. */
export class LoginStore {
  /** A call is in flight; the submit button shows it and cannot be pressed twice. */
  submitting = false;
  /** What went wrong last, shown above the form. */
  failure: LoginFailure | null = null;
  /** Set after a sign-in of a flagged account: the change-password step shows. */
  pendingChange: { csrfToken: string; oldPassword: string } | null = null;
  /** The flow finished; the page leaves for the next URL. */
  done = false;
  private api: ReturnType<typeof loginApi>;

  constructor(client: RequestClient) {
    this.api = loginApi(client);
    makeAutoObservable<LoginStore, 'api'>(this, { api: false });
  }

  /** Signs in; on success either finishes or asks for the forced password change. */
  async signIn(username: string, password: string): Promise<void> {
    this.submitting = true;
    this.failure = null;
    const [error, result] = await this.api.login(username.trim(), password);
    runInAction(() => {
      this.submitting = false;
      if (error) this.failure = failureOf(error);
      else if (result.must_change_password)
        this.pendingChange = { csrfToken: result.csrf_token, oldPassword: password };
      else this.done = true;
    });
  }

  /** Completes the forced change with the password just used as the old one. */
  async changePassword(newPassword: string): Promise<void> {
    if (!this.pendingChange) return;
    this.submitting = true;
    this.failure = null;
    const { csrfToken, oldPassword } = this.pendingChange;
    const [error] = await this.api.changePassword(csrfToken, newPassword, oldPassword);
    runInAction(() => {
      this.submitting = false;
      if (error) this.failure = failureOf(error);
      else this.done = true;
    });
  }
}
