import { edition } from '../../src/core/edition';
import type { RequestClient } from '../../src/core/request';

/** What a key may do: clone/pull only, or also push. */
export type SshKeyScope = 'read_only' | 'read_write';

/** One SSH public key as the code-hosting API answers it. */
export interface SshKey {
  id: string;
  name: string;
  /** The public key, one line. */
  key: string;
  key_type: string;
  /** `SHA256:…` as `ssh-keygen -lf` prints it, so users can compare with their machine. */
  fingerprint: string;
  scope: SshKeyScope;
  /** ISO time; null means the key never expires. */
  expires_at: string | null;
  last_used_at: string | null;
  created_at: string;
  /** Past its expiry: code hosting refuses it. */
  expired: boolean;
}

/** Create body; the key itself cannot be edited later. */
export interface SshKeyInput {
  name: string;
  key: string;
  scope: SshKeyScope;
  expires_at: string | null;
}

/** Edit body. */
export type SshKeyUpdate = Omit<SshKeyInput, 'key'>;

/** Keys live on the code-hosting host: `/uiless/proxy/` in China editions, `/` in the global one. */
export const SSH_KEYS_URL = `${edition.paths.codeHostingPrefix}codeup/api/v3/user/keys`;

/** Calls of the SSH key section (silent: the page shows its own failure messages). */
export function sshKeysApi(client: RequestClient) {
  return {
    /** The user's keys; the answer is an array. */
    list: () => client.get<SshKey[]>(SSH_KEYS_URL, undefined, { silent: true }),
    /** Adds a key; 400 carries the rule that failed, 409 a duplicate. */
    create: (input: SshKeyInput) => client.post<SshKey>(SSH_KEYS_URL, input, { silent: true }),
    /** Changes name, scope or expiry. */
    update: (id: string, input: SshKeyUpdate) =>
      client.put<SshKey>(`${SSH_KEYS_URL}/${encodeURIComponent(id)}`, input, { silent: true }),
    /** Deletes a key. */
    remove: (id: string) =>
      client.delete<{ success: boolean }>(`${SSH_KEYS_URL}/${encodeURIComponent(id)}`, undefined, { silent: true }),
  };
}
