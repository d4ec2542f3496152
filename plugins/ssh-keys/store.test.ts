import { describe, expect, it, vi } from 'vitest';
import { RequestError, type RequestClient } from '../../src/core/request';
import type { SshKey } from './api';
import { looksSupported } from './rules';
import { SshKeysStore } from './store';

const key: SshKey = {
  id: 'k1',
  name: 'laptop',
  key: 'ssh-ed25519 AAAA x',
  key_type: 'ssh-ed25519',
  fingerprint: 'SHA256:abc',
  scope: 'read_write',
  expires_at: null,
  last_used_at: null,
  created_at: '2026-01-01T00:00:00.000Z',
  expired: false,
};
const fail = (status: number, data?: unknown) => [
  new RequestError({ status, message: 'x', url: '/', method: 'GET', data }),
  undefined,
];

function client(overrides: Partial<Record<'get' | 'post' | 'put' | 'delete', ReturnType<typeof vi.fn>>>) {
  return { get: vi.fn(), post: vi.fn(), put: vi.fn(), delete: vi.fn(), ...overrides } as unknown as RequestClient;
}

describe('SshKeysStore', () => {
  it('stops loading on success and calls the edition’s code-hosting path', async () => {
    const get = vi.fn().mockResolvedValue([null, [key]]);
    const store = new SshKeysStore(client({ get }));
    expect(store.loading).toBe(true);
    await store.load();
    expect(store).toMatchObject({ loading: false, failed: false, keys: [key] });
    expect(get.mock.calls[0][0]).toBe('/uiless/proxy/codeup/api/v3/user/keys');
  });

  it('stops loading on failure and leaves the list empty', async () => {
    const store = new SshKeysStore(client({ get: vi.fn().mockResolvedValue(fail(500)) }));
    await store.load();
    expect(store).toMatchObject({ loading: false, failed: true, keys: [] });
  });

  it('adds, edits and deletes, passing the service’s explanation of a refusal', async () => {
    const post = vi
      .fn()
      .mockResolvedValueOnce(fail(409, { code: 'SshKeyDuplicate', message: 'This public key has already been added.' }))
      .mockResolvedValueOnce(fail(400, { code: 'Other', message: 'Explained by the service.' }))
      .mockResolvedValueOnce([null, key]);
    const put = vi.fn().mockResolvedValue([null, { ...key, name: 'renamed' }]);
    const del = vi
      .fn()
      .mockResolvedValueOnce(fail(500))
      .mockResolvedValueOnce([null, { success: true }]);
    const store = new SshKeysStore(client({ post, put, delete: del }));
    const input = { name: 'laptop', key: key.key, scope: 'read_write' as const, expires_at: null };
    expect(await store.create(input)).toEqual({ ok: false, failure: { id: 'ssh-keys.error.duplicate' } });
    expect(await store.create(input)).toEqual({ ok: false, failure: { text: 'Explained by the service.' } });
    expect(store.keys).toEqual([]);
    expect(await store.create(input)).toEqual({ ok: true });
    expect(store.keys).toEqual([key]);
    await store.update('k1', { name: 'renamed', scope: 'read_write', expires_at: null });
    expect(store.keys[0].name).toBe('renamed');
    // A server failure has no user-fixable explanation: the page uses its own 'deletion failed'.
    expect(await store.remove('k1')).toEqual({ ok: false, failure: undefined });
    expect(store.keys).toHaveLength(1);
    expect(await store.remove('k1')).toEqual({ ok: true });
    expect(store.keys).toEqual([]);
    expect(store.saving).toBe(false);
  });
});

describe('looksSupported', () => {
  it('lets RSA and ed25519 (and private keys, which the service explains) through', () => {
    expect(looksSupported('ssh-ed25519 AAAA me')).toBe(true);
    expect(looksSupported('  ssh-rsa AAAA')).toBe(true);
    expect(looksSupported('-----BEGIN OPENSSH PRIVATE KEY-----')).toBe(true);
    expect(looksSupported('ecdsa-sha2-nistp256 AAAA')).toBe(false);
    expect(looksSupported('ssh-dss AAAA')).toBe(false);
    expect(looksSupported('sk-ssh-ed25519@openssh.com AAAA')).toBe(false);
  });
});
