import { describe, expect, it } from 'vitest';
import { rootStoreWithPageData } from '../../tests/kit/web';
import { fakeBackend, ok, serviceError } from '../../tests/kit/fake-backend';
import type { SshKey } from './contract';
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
  last_use: null,
  created_at: '2026-01-01T00:00:00.000Z',
  expired: false,
};
const KEYS = '/uiless/proxy/codeup/api/v3/user/keys';

describe('SshKeysStore', () => {
  it('stops loading on success and calls the edition’s code-hosting path', async () => {
    const backend = fakeBackend({ [`GET ${KEYS}`]: ok([key]) });
    const store = new SshKeysStore(backend.client);
    expect(store.loading).toBe(true);
    await store.load();
    expect(store).toMatchObject({ loading: false, loaded: true, failed: false, keys: [key] });
    expect(backend.calls.map((c) => c.path)).toEqual([KEYS]);
  });

  it('stops loading on failure and leaves the list empty; a 500 shows the central notice', async () => {
    const backend = fakeBackend({ [`GET ${KEYS}`]: serviceError(500, 'SystemError', 'x', 'req-1') });
    const store = new SshKeysStore(backend.client);
    await store.load();
    expect(store).toMatchObject({ loading: false, failed: true, keys: [] });
    expect(backend.notices.map((n) => n.requestId)).toEqual(['req-1']);
  });

  it('adds, edits and deletes, passing the service’s explanation of a refusal', async () => {
    const posts = [
      serviceError(409, 'SshKeyDuplicate', 'This public key has already been added.'),
      serviceError(400, 'Other', 'Explained by the service.'),
      ok(key),
    ];
    const deletes = [serviceError(500, 'SystemError'), ok({ success: true })];
    const backend = fakeBackend({
      [`POST ${KEYS}`]: () => posts.shift()!,
      [`PUT ${KEYS}/:id`]: (call) => ok({ ...key, id: call.params.id, name: 'renamed' }),
      [`DELETE ${KEYS}/:id`]: () => deletes.shift()!,
    });
    const store = new SshKeysStore(backend.client);
    const input = { name: 'laptop', key: key.key, scope: 'read_write' as const, expires_at: null };
    expect(await store.create(input)).toEqual({ ok: false, failure: { id: 'ssh-keys.error.duplicate' } });
    expect(await store.create(input)).toEqual({ ok: false, failure: { text: 'Explained by the service.' } });
    expect(store.keys).toEqual([]);
    expect(await store.create(input)).toEqual({ ok: true });
    expect(store.keys).toEqual([key]);
    await store.update('k1', { name: 'renamed', scope: 'read_write', expires_at: null });
    expect(store.keys[0].name).toBe('renamed');
    // A server failure: the central notice says it (with its requestId); the page adds nothing.
    expect(await store.remove('k1')).toEqual({ ok: false, failure: undefined });
    expect(backend.notices).toHaveLength(1);
    expect(store.keys).toHaveLength(1);
    expect(await store.remove('k1')).toEqual({ ok: true });
    expect(store.keys).toEqual([]);
    expect(store.saving).toBe(false);
  });

  it('falls back to the action’s own message when the service could not be reached', async () => {
    const backend = fakeBackend({
      [`PUT ${KEYS}/:id`]: () => {
        throw new TypeError('network down');
      },
    });
    const store = new SshKeysStore(backend.client);
    expect(await store.update('k1', { name: 'x', scope: 'read_only', expires_at: null })).toEqual({
      ok: false,
      failure: { id: 'ssh-keys.message.updateFailed' },
    });
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

describe('SshKeysStore seeded by the page', () => {
  const rootWith = (plugins?: Record<string, unknown>) => {
    const backend = fakeBackend({ [`GET ${KEYS}`]: ok([]) });
    return { root: rootStoreWithPageData({ sshKeys: () => import('./store') }, backend, plugins), backend };
  };

  it('shows the list the page brought without a call; the next load asks', async () => {
    const { root, backend } = rootWith({ 'ssh-keys': { keys: [key] } });
    const store = await root.store('sshKeys');
    expect(store).toMatchObject({ loading: false, loaded: true, failed: false, keys: [key] });
    await store.load();
    expect(backend.calls).toHaveLength(0);
    await store.load();
    expect(backend.calls.map((c) => c.path)).toEqual([KEYS]);
    expect(store.keys).toEqual([]);
  });

  it('ignores a malformed list and asks', async () => {
    for (const keys of [[{ ...key, expired: 'no' }], [{ ...key, id: 1 }], [null], 'keys', undefined]) {
      const { root, backend } = rootWith({ 'ssh-keys': { keys } });
      const store = await root.store('sshKeys');
      expect(store.loading).toBe(true);
      await store.load();
      expect(backend.calls).toHaveLength(1);
    }
  });
});
