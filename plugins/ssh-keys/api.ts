import { edition } from '../../src/core/edition';
import type { RequestClient } from '../../src/core/request';
import type { Success } from '../../schemas/common';
import type { SshKey, SshKeyCreateBody, SshKeyUpdateBody } from './contract';

/** Keys live on the code-hosting host: `/uiless/proxy/` in China editions, `/` in the global one. */
export const SSH_KEYS_URL = `${edition.paths.codeHostingPrefix}codeup/api/v3/user/keys`;

/** Calls of the SSH key section; a response ≥ 500 shows the central notice, the page explains the rest. */
export function sshKeysApi(client: RequestClient) {
  return {
    /** The user's keys; the answer is an array. */
    list: () => client.get<SshKey[]>(SSH_KEYS_URL),
    /** Adds a key; 400 carries the rule that failed, 409 a duplicate. */
    create: (input: SshKeyCreateBody) => client.post<SshKey>(SSH_KEYS_URL, input),
    /** Changes name, scope or expiry. */
    update: (id: string, input: SshKeyUpdateBody) =>
      client.put<SshKey>(`${SSH_KEYS_URL}/${encodeURIComponent(id)}`, input),
    /** Deletes a key. */
    remove: (id: string) => client.delete<Success>(`${SSH_KEYS_URL}/${encodeURIComponent(id)}`),
  };
}
