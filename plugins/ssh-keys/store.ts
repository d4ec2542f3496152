import type { RequestClient, RequestError } from '../../src/core/request';
import { failureOf, type ActionResult } from '../../src/core/stores/failure';
import { annotate, ResourceStore } from '../../src/core/stores/resource';
import type { StoreFactory } from '../../src/core/stores/root';
import { sshKeysApi } from './api';
import type { SshKey, SshKeyCreateBody, SshKeyUpdateBody } from './contract';
import { hasStrings, isLastUse, isListOf, isStringOrNull } from '../../src/core/shape';

/** Service error codes the page explains in its own catalogue (the UI language may differ from the service's). */
export const SSH_KEY_ERROR_MESSAGES: Readonly<Record<string, string>> = {
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

/** What the page shows when an action fails with nothing more specific to say. */
const FALLBACK = {
  create: 'ssh-keys.message.createFailed',
  update: 'ssh-keys.message.updateFailed',
  remove: 'ssh-keys.message.deleteFailed',
} as const;

const failure = (fallbackId: string) => (error: RequestError) => failureOf(error, SSH_KEY_ERROR_MESSAGES, fallbackId);

/** The user's SSH public keys and the actions on them. */
export class SshKeysStore extends ResourceStore<SshKey[]> {
  private readonly api: ReturnType<typeof sshKeysApi>;

  constructor(client: RequestClient) {
    // The list shows as loading until the first fetch settles.
    super({ empty: [], loading: true });
    this.api = sshKeysApi(client);
    annotate<SshKeysStore>(this, { action: ['create', 'update', 'remove'] });
  }

  /** Keys, newest first; empty until loaded and when the fetch fails. */
  get keys(): SshKey[] {
    return this.data;
  }

  /** The keys, as the code-hosting service lists them. */
  protected fetch() {
    return this.api.list();
  }

  /** Adds a key, then shows it first in the list. */
  create(input: SshKeyCreateBody): Promise<ActionResult> {
    return this.saveWith(this.api.create(input), {
      failure: failure(FALLBACK.create),
      apply: (key) => (this.data = [key, ...this.data]),
    });
  }

  /** Edits a key in place. */
  update(id: string, input: SshKeyUpdateBody): Promise<ActionResult> {
    return this.saveWith(this.api.update(id, input), {
      failure: failure(FALLBACK.update),
      apply: (key) => (this.data = this.data.map((k) => (k.id === id ? key : k))),
    });
  }

  /** Deletes a key and drops it from the list. */
  remove(id: string): Promise<ActionResult> {
    return this.saveWith(this.api.remove(id), {
      failure: failure(FALLBACK.remove),
      apply: () => (this.data = this.data.filter((k) => k.id !== id)),
    });
  }
}

/** Built when the section first asks for it (`useStore('sshKeys')`). */
const createSshKeysStore: StoreFactory<SshKeysStore> = (core) => {
  const store = new SshKeysStore(core.client);
  // The SSH page's first render has the list from the page (else the page's load asks for it).
  const brought = (core.pageData('ssh-keys') as { keys?: unknown } | null | undefined)?.keys;
  if (isKeyList(brought)) store.seed(brought);
  return store;
};

/** A list as the service answers it (what the page brought is checked before the page shows it). */
export function isKeyList(v: unknown): v is SshKey[] {
  return isListOf(
    v,
    (key) =>
      hasStrings(key, ['id', 'name', 'key', 'key_type', 'fingerprint', 'scope', 'created_at']) &&
      isStringOrNull(key.expires_at) &&
      isStringOrNull(key.last_used_at) &&
      (key.last_use === null || isLastUse(key.last_use)) &&
      typeof key.expired === 'boolean',
  );
}
export default createSshKeysStore;
