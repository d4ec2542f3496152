import { describe, expect, it } from 'vitest';
import { fakeBackend, ok, serviceError } from '../../tests/kit/fake-backend';
import { rootStoreWithPageData } from '../../tests/kit/web';
import { PackagesCredentialStore } from './store';

const BASE = '/uiless/proxy/package/api/external/users';
const info = { username: 'alice', has_password: false, effective_at: null, last_use: null };
const lastUse = { at: '2026-03-02T10:15:00.000Z', address: '203.0.113.7', client: 'npm/10.8.2 node/v20.20.2' };

describe('PackagesCredentialStore', () => {
  it('stops loading on success and on failure (no data on failure)', async () => {
    const good = new PackagesCredentialStore(fakeBackend({ [`GET ${BASE}/userInfo`]: ok(info) }).client);
    await good.load();
    expect(good).toMatchObject({ loading: false, failed: false, info });
    const refused = new PackagesCredentialStore(
      fakeBackend({ [`GET ${BASE}/userInfo`]: serviceError(403, 'Forbidden') }).client,
    );
    await refused.load();
    expect(refused).toMatchObject({ loading: false, failed: true, info: null });
  });

  it("has the password's last use, or none", async () => {
    const used = new PackagesCredentialStore(
      fakeBackend({ [`GET ${BASE}/userInfo`]: ok({ ...info, has_password: true, last_use: lastUse }) }).client,
    );
    expect(used.lastUse).toBeNull();
    await used.load();
    expect(used.lastUse).toEqual(lastUse);
    const never = new PackagesCredentialStore(fakeBackend({ [`GET ${BASE}/userInfo`]: ok(info) }).client);
    await never.load();
    expect(never.lastUse).toBeNull();
  });

  it('keeps the new password apart from the account and forgets it on request', async () => {
    const reset = {
      username: 'alice',
      has_password: true,
      effective_at: '2026-01-01T00:00:10.000Z',
      last_use: lastUse,
      password: 'p@ss',
    };
    const answers = [serviceError(403, 'Forbidden', 'not allowed'), serviceError(503, 'SystemError'), ok(reset)];
    const backend = fakeBackend({ [`POST ${BASE}/user/password`]: () => answers.shift()! });
    const store = new PackagesCredentialStore(backend.client);
    // The page says 'reset failed' for a refusal, whatever the service's reason…
    expect(await store.reset()).toEqual({ ok: false, failure: { id: 'packages-credential.reset.failed' } });
    // …and nothing more than the central notice for a server failure.
    expect(await store.reset()).toEqual({ ok: false, failure: undefined });
    expect(backend.notices).toHaveLength(1);
    expect(store.newPassword).toBeNull();
    expect(store.resetting).toBe(false);
    expect(await store.reset()).toEqual({ ok: true });
    expect(store.newPassword).toBe('p@ss');
    expect(store.info).toEqual({
      username: 'alice',
      has_password: true,
      effective_at: reset.effective_at,
      last_use: lastUse,
    });
    // The old password's last download stays shown after a reset (it is the account's, not the new password's).
    expect(store.lastUse).toEqual(lastUse);
    expect(backend.calls.at(-1)?.path).toBe(`${BASE}/user/password`);
    store.forgetPassword();
    expect(store.newPassword).toBeNull();
  });
});

describe('PackagesCredentialStore seeded by the page', () => {
  const rootWith = (pageData?: Record<string, unknown>) => {
    const backend = fakeBackend({ [`GET ${BASE}/userInfo`]: ok({ ...info, has_password: true }) });
    const root = rootStoreWithPageData({ packagesCredential: () => import('./store') }, backend, pageData);
    return { root, backend };
  };

  it('shows the account the page brought without a call; the next load asks', async () => {
    const { root, backend } = rootWith({ 'packages-credential': { info } });
    const store = await root.store('packagesCredential');
    expect(store).toMatchObject({ loading: false, loaded: true, failed: false, info });
    await store.load();
    expect(backend.calls).toHaveLength(0);
    await store.load();
    expect(backend.calls).toHaveLength(1);
    expect(store.info?.has_password).toBe(true);
  });

  it('shows the last use the page brought', async () => {
    const { root, backend } = rootWith({ 'packages-credential': { info: { ...info, last_use: lastUse } } });
    const store = await root.store('packagesCredential');
    expect(store).toMatchObject({ loading: false, loaded: true, lastUse });
    expect(backend.calls).toHaveLength(0);
    const anonymous = { ...lastUse, client: null };
    const { root: root2 } = rootWith({ 'packages-credential': { info: { ...info, last_use: anonymous } } });
    expect((await root2.store('packagesCredential')).lastUse).toEqual(anonymous);
  });

  it('ignores a malformed account (or one with a password in it) and asks', async () => {
    for (const brought of [
      { ...info, last_use: undefined },
      { ...info, last_use: { ...lastUse, at: 0 } },
      { ...info, last_use: { ...lastUse, address: null } },
      { ...info, last_use: { at: lastUse.at, address: lastUse.address } },
      { ...info, last_use: { ...lastUse, secret: 'x' } },
      { ...info, has_password: 'no' },
      { ...info, username: 1 },
      { ...info, effective_at: 0 },
      { ...info, password: 'p@ss' },
      null,
      'info',
      undefined,
    ]) {
      const { root, backend } = rootWith({ 'packages-credential': { info: brought } });
      const store = await root.store('packagesCredential');
      expect(store.loading).toBe(true);
      await store.load();
      expect(backend.calls).toHaveLength(1);
    }
  });
});
