import { makeAutoObservable, runInAction } from 'mobx';
import type { RequestClient, RequestError } from '../../src/core/request';
import { sshKeysApi, type SshKey, type SshKeyInput, type SshKeyUpdate } from './api';

/** Service error codes the page explains in its own catalogue (the UI language may differ from the service's). */
export const SSH_KEY_ERROR_MESSAGES: Record<string, string> = {
  SshKeyInvalid: 'ssh-keys.error.invalid',
  SshKeyUnsupported: 'ssh-keys.form.keyUnsupported',
  SshKeyPrivate: 'ssh-keys.error.private',
  SshKeyMultiLine: 'ssh-keys.error.multiLine',
  SshKeyTooLong: 'ssh-keys.error.tooLong',
  SshKeyTypeMismatch: 'ssh-keys.error.typeMismatch',
  SshKeyRsaTooShort: 'ssh-keys.error.rsaTooShort',
  SshKeyDuplicate: 'ssh-keys.error.duplicate',
  SshKeyNotFound: 'ssh-keys.error.notFound',
  SshKeyExpiryPast: 'ssh-keys.error.expiryPast',
};

/** Why a save or delete failed: a message id of ours, or the service's text for other user-fixable refusals. */
export type SshKeyFailure = { id: string } | { text: string };

/** Outcome of a save or delete: done, or what to show (none: the page's generic 'failed, please retry'). */
export type SshKeyActionResult = { ok: true } | { ok: false; failure?: SshKeyFailure };

function failureOf(error: RequestError): SshKeyFailure | undefined {
  const data = (error.data ?? {}) as { code?: unknown; message?: unknown };
  if (typeof data.code === 'string' && SSH_KEY_ERROR_MESSAGES[data.code])
    return { id: SSH_KEY_ERROR_MESSAGES[data.code] };
  if (error.status >= 400 && error.status < 500 && typeof data.message === 'string') return { text: data.message };
  return undefined;
}

/** The user's SSH public keys and the actions on them. */
export class SshKeysStore {
  /** The list is being fetched; true until the first fetch settles (success or failure). */
  loading = true;
  /** Keys, newest first; stays empty when the fetch fails. */
  keys: SshKey[] = [];
  /** The last fetch failed; the page says so instead of an empty state. */
  failed = false;
  /** A create/edit/delete is in flight, so buttons cannot be pressed twice. */
  saving = false;
  private api: ReturnType<typeof sshKeysApi>;

  constructor(client: RequestClient) {
    this.api = sshKeysApi(client);
    makeAutoObservable<SshKeysStore, 'api'>(this, { api: false });
  }

  /** Fetches the list; loading stops on success and on failure. */
  async load(): Promise<void> {
    this.loading = true;
    const [error, keys] = await this.api.list();
    runInAction(() => {
      this.loading = false;
      this.failed = !!error;
      this.keys = error ? [] : keys;
    });
  }

  /** Adds a key, then shows it first in the list. */
  async create(input: SshKeyInput): Promise<SshKeyActionResult> {
    this.saving = true;
    const [error, key] = await this.api.create(input);
    runInAction(() => {
      this.saving = false;
      if (!error) this.keys = [key, ...this.keys];
    });
    return error ? { ok: false, failure: failureOf(error) } : { ok: true };
  }

  /** Edits a key in place. */
  async update(id: string, input: SshKeyUpdate): Promise<SshKeyActionResult> {
    this.saving = true;
    const [error, key] = await this.api.update(id, input);
    runInAction(() => {
      this.saving = false;
      if (!error) this.keys = this.keys.map((k) => (k.id === id ? key : k));
    });
    return error ? { ok: false, failure: failureOf(error) } : { ok: true };
  }

  /** Deletes a key and drops it from the list. */
  async remove(id: string): Promise<SshKeyActionResult> {
    this.saving = true;
    const [error] = await this.api.remove(id);
    runInAction(() => {
      this.saving = false;
      if (!error) this.keys = this.keys.filter((k) => k.id !== id);
    });
    return error ? { ok: false, failure: failureOf(error) } : { ok: true };
  }
}
