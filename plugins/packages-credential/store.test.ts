import { describe, expect, it, vi } from 'vitest';
import { RequestError, type RequestClient } from '../../src/core/request';
import { PackagesCredentialStore } from './store';

const fail = () => [new RequestError({ status: 403, message: 'x', url: '/', method: 'GET' }), undefined];
const info = { username: 'alice', has_password: false, effective_at: null };

describe('PackagesCredentialStore', () => {
  it('stops loading on success and on failure (no data on failure)', async () => {
    const ok = new PackagesCredentialStore({
      get: vi.fn().mockResolvedValue([null, info]),
    } as unknown as RequestClient);
    await ok.load();
    expect(ok).toMatchObject({ loading: false, failed: false, info });
    const ko = new PackagesCredentialStore({ get: vi.fn().mockResolvedValue(fail()) } as unknown as RequestClient);
    await ko.load();
    expect(ko).toMatchObject({ loading: false, failed: true, info: null });
  });

  it('keeps the new password apart from the account and forgets it on request', async () => {
    const reset = { username: 'alice', has_password: true, effective_at: '2026-01-01T00:00:10.000Z', password: 'p@ss' };
    const post = vi.fn().mockResolvedValueOnce(fail()).mockResolvedValueOnce([null, reset]);
    const store = new PackagesCredentialStore({ post } as unknown as RequestClient);
    expect(await store.reset()).toBe(false);
    expect(store.newPassword).toBeNull();
    expect(await store.reset()).toBe(true);
    expect(store.newPassword).toBe('p@ss');
    expect(store.info).toEqual({ username: 'alice', has_password: true, effective_at: reset.effective_at });
    expect(post.mock.calls[1][0]).toBe('/uiless/proxy/package/api/external/users/user/password');
    store.forgetPassword();
    expect(store.newPassword).toBeNull();
  });
});
