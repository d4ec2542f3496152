import { beforeEach, describe, expect, it } from 'vitest';
import { rootStoreWithPageData } from '../../tests/kit/web';
import type { AccessToken } from './contract';
import { AccessTokensStore, DEFAULT_PAGE_SIZE, PAGE_SIZE_KEY } from './store';
import { TEST_SCOPES, testToken, tokenBackend } from './test-backend';

const many = (n: number) => Array.from({ length: n }, (_, i) => testToken(`t${i}`, { expired: i % 5 === 0 }));
const values = {
  name: 'ci',
  description: 'deploys from CI',
  token_scopes: ['base:user:read'],
  expires_at: '2099-01-01T00:00:00.000Z',
};

describe('AccessTokensStore', () => {
  beforeEach(() => localStorage.clear());

  it('loads a page; loading stops; expired included by default', async () => {
    const { client, calls } = tokenBackend({ tokens: many(25) });
    const store = new AccessTokensStore(client);
    const p = store.load();
    expect(store.loading).toBe(true);
    await p;
    expect(store.loading).toBe(false);
    expect(store.list).toHaveLength(DEFAULT_PAGE_SIZE);
    expect(store.page.total).toBe(25);
    expect(calls[0].body).toEqual({ include_expired: true, pagination: { current_page: 1, page_size: 20 } });
  });

  it('a failed load stops loading and leaves the list empty', async () => {
    const { client } = tokenBackend({ tokens: many(3), fail: () => 500 });
    const store = new AccessTokensStore(client);
    await store.load();
    expect(store.loading).toBe(false);
    expect(store.loaded).toBe(true);
    expect(store.list).toEqual([]);
    expect(store.page.total).toBe(0);
  });

  it('remembers the page size in local storage and takes it at the first load, not before; ignores junk', async () => {
    const { client, calls } = tokenBackend({ tokens: many(25) });
    const store = new AccessTokensStore(client);
    store.setPage(1, 10);
    await new Promise((r) => setTimeout(r, 0));
    expect(localStorage.getItem(PAGE_SIZE_KEY)).toBe('10');
    expect(calls.at(-1)?.body).toMatchObject({ pagination: { page_size: 10 } });
    // A new store renders the default size first (as the page the service rendered has it), then loads the
    // remembered one.
    const next = new AccessTokensStore(client);
    expect(next.page.pageSize).toBe(DEFAULT_PAGE_SIZE);
    await next.load();
    expect(next.page.pageSize).toBe(10);
    expect(calls.at(-1)?.body).toMatchObject({ pagination: { current_page: 1, page_size: 10 } });
    expect(next.list).toHaveLength(10);
    localStorage.setItem(PAGE_SIZE_KEY, '7');
    const junk = new AccessTokensStore(client);
    await junk.load();
    expect(junk.page.pageSize).toBe(DEFAULT_PAGE_SIZE);
    expect(calls.at(-1)?.body).toMatchObject({ pagination: { page_size: DEFAULT_PAGE_SIZE } });
  });

  it('include_expired off restarts at page 1', async () => {
    const { client, calls } = tokenBackend({ tokens: many(25) });
    const store = new AccessTokensStore(client);
    store.setPage(2, 20);
    store.setIncludeExpired(false);
    await new Promise((r) => setTimeout(r, 0));
    expect(calls.at(-1)?.body).toEqual({ include_expired: false, pagination: { current_page: 1, page_size: 20 } });
    expect(store.list.every((t) => !t.expired)).toBe(true);
  });

  it('create keeps the value once; copying or leaving forgets it', async () => {
    const { client, calls } = tokenBackend();
    const store = new AccessTokensStore(client);
    expect(await store.create(values)).toEqual({ ok: true });
    // The service's clock sets the creation time: the page sends exactly the form's values.
    expect(calls[0].body).toEqual(values);
    expect(store.visibleToken).toMatch(/^pt-/);
    expect(store.list.map((t) => t.name)).toEqual(['ci']);
    store.tokenCopied();
    expect(store.visibleToken).toBeNull();
    await store.create(values);
    store.reset();
    expect(store.visibleToken).toBeNull();
  });

  it('failures carry the service reason for 4xx; a 5xx shows only the central notice; a network failure the fallback', async () => {
    const { client, notices } = tokenBackend({ fail: (c) => (c.method === 'POST' ? 400 : 503) });
    const store = new AccessTokensStore(client);
    expect(await store.create(values)).toEqual({ ok: false, failure: { text: 'refused by test' } });
    expect(notices).toHaveLength(0);
    expect(await store.remove('x')).toEqual({ ok: false, failure: undefined });
    expect(notices.map((n) => n.requestId)).toEqual(['r1']);
    expect(store.saving).toBe(false);

    const offline = tokenBackend();
    offline.on('PUT /users/ajax/v1/my/tokens/:id', () => {
      throw new TypeError('network down');
    });
    expect(await new AccessTokensStore(offline.client).update('a', values)).toEqual({
      ok: false,
      failure: { id: 'access-tokens.result.updateFailed' },
    });
  });

  it('update and remove go to the token’s own path', async () => {
    const { client, calls } = tokenBackend({ tokens: [testToken('a')] });
    const store = new AccessTokensStore(client);
    expect(await store.update('a', values)).toEqual({ ok: true });
    expect(calls[0]).toMatchObject({ method: 'PUT', path: '/users/ajax/v1/my/tokens/a' });
    expect(await store.remove('a')).toEqual({ ok: true });
    expect(calls.find((c) => c.method === 'DELETE')?.path).toBe('/users/ajax/v1/my/tokens/a');
  });

  it('regenerate and re-create: the new value once with what changed, at the top of page 1; copying forgets both', async () => {
    const { client, calls } = tokenBackend({
      tokens: [
        testToken('live'),
        testToken('old', { expired: true, expires_at: '2020-01-01T00:00:00.000Z', token_scopes: ['x:gone:read'] }),
      ],
    });
    const store = new AccessTokensStore(client);
    await store.load();
    store.page.current = 2;
    const expires_at = '2099-06-01T00:00:00.000Z';
    expect(await store.regenerate('live', { expires_at, grace_minutes: 60 })).toEqual({ ok: true });
    expect(calls.at(-2)).toMatchObject({
      method: 'POST',
      path: '/users/ajax/v1/my/tokens/live/regenerate',
      body: { expires_at, grace_minutes: 60 },
    });
    expect(store.visibleToken).toMatch(/^pt-RENEWED/);
    expect(store.lastRenewal?.dropped_scopes).toEqual([]);
    expect(store.page.current).toBe(1);
    expect(store.list.map((t) => t.token_id)).not.toContain('live');
    store.tokenCopied();
    expect([store.visibleToken, store.lastRenewal]).toEqual([null, null]);

    expect(await store.recreate('old', { expires_at })).toEqual({ ok: true });
    expect(calls.at(-2)).toMatchObject({ path: '/users/ajax/v1/my/tokens/old/recreate', body: { expires_at } });
    expect(store.lastRenewal).toEqual({
      previous_stops_at: '2020-01-01T00:00:00.000Z',
      dropped_scopes: ['x:gone:read'],
    });
    store.reset();
    expect([store.visibleToken, store.lastRenewal]).toEqual([null, null]);
  });

  it('a refused renewal keeps the one-time display empty and says why', async () => {
    const { client } = tokenBackend({
      tokens: [testToken('live')],
      fail: (c) => (c.method === 'POST' && !c.path.endsWith(':search') ? 409 : undefined),
    });
    const store = new AccessTokensStore(client);
    expect(await store.regenerate('live', { expires_at: '2099-06-01T00:00:00.000Z', grace_minutes: 0 })).toEqual({
      ok: false,
      failure: { text: 'refused by test' },
    });
    expect([store.visibleToken, store.lastRenewal, store.saving]).toEqual([null, null, false]);
  });

  it('legacy: lists through tokens:batch, fetches scopes only when the batch has none or fails', async () => {
    const withScopes = tokenBackend({ tokens: many(3), batchScopes: true });
    const a = new AccessTokensStore(withScopes.client, { legacy: true, userId: () => 'u1' });
    await a.load();
    expect(withScopes.calls.map((c) => c.path)).toEqual(['/users/ajax/v1/tokens:batch']);
    expect(withScopes.calls[0].body).toEqual({ user_id: 'u1' });
    expect(a.scopes).toEqual(TEST_SCOPES);
    expect(a.list).toHaveLength(3);

    const without = tokenBackend({ tokens: many(3) });
    await new AccessTokensStore(without.client, { legacy: true, userId: () => 'u1' }).load();
    expect(without.calls.map((c) => c.path)).toEqual(['/users/ajax/v1/tokens:batch', '/users/ajax/v1/tokens:scopes']);

    const failing = tokenBackend({ fail: (c) => (c.path.endsWith(':batch') ? 500 : undefined) });
    const c = new AccessTokensStore(failing.client, { legacy: true, userId: () => 'u1' });
    await c.load();
    expect(c.list).toEqual([]);
    expect(c.scopes).toEqual(TEST_SCOPES);

    await a.create(values);
    expect(withScopes.calls.find((x) => x.method === 'POST' && x.path === '/users/ajax/v1/tokens')).toBeTruthy();
    a.setIncludeExpired(false);
    expect(a.list.every((t) => !t.expired)).toBe(true);
  });
});

describe('AccessTokensStore seeded by the page', () => {
  beforeEach(() => localStorage.clear());
  const first = (tokens: AccessToken[], pageSize = DEFAULT_PAGE_SIZE) => ({
    access_tokens: tokens.slice(0, pageSize),
    pages: { current_page: 1, page_size: pageSize, total_size: tokens.length },
  });
  const rootWith = (tokens: AccessToken[], pageData?: Record<string, unknown>) => {
    const backend = tokenBackend({ tokens });
    return { root: rootStoreWithPageData({ accessTokens: () => import('./store') }, backend, pageData), backend };
  };

  it('shows the first page the page brought without a call; the next load asks', async () => {
    const tokens = many(25);
    const { root, backend } = rootWith(tokens, { 'access-tokens': { page: first(tokens) } });
    const store = await root.store('accessTokens');
    expect(store).toMatchObject({ loading: false, loaded: true, failed: false, page: { current: 1, total: 25 } });
    expect(store.list).toEqual(tokens.slice(0, DEFAULT_PAGE_SIZE));
    await store.load();
    expect(backend.calls).toHaveLength(0);
    store.setPage(2, DEFAULT_PAGE_SIZE);
    await new Promise((r) => setTimeout(r, 0));
    expect(backend.calls.map((c) => c.body)).toEqual([
      { include_expired: true, pagination: { current_page: 2, page_size: DEFAULT_PAGE_SIZE } },
    ]);
    expect(store.list).toEqual(tokens.slice(DEFAULT_PAGE_SIZE));
  });

  it('leaving the page forgets the seed: coming back asks', async () => {
    const tokens = many(3);
    const { root, backend } = rootWith(tokens, { 'access-tokens': { page: first(tokens) } });
    const store = await root.store('accessTokens');
    store.reset();
    await store.load();
    expect(backend.calls).toHaveLength(1);
    expect(store.list).toEqual(tokens);
  });

  it('shows the brought page first; then the size the browser remembers, from the brought page when it holds it', async () => {
    const tokens = many(25);
    const brought = { 'access-tokens': { page: first(tokens) } };
    // A smaller size: the brought first page holds it whole, no call.
    localStorage.setItem(PAGE_SIZE_KEY, '10');
    const smaller = rootWith(tokens, brought);
    const sized = await smaller.root.store('accessTokens');
    // What the service rendered with the page (it knows no remembered size): the browser's first render matches it.
    expect(sized).toMatchObject({ loaded: true, page: { current: 1, pageSize: DEFAULT_PAGE_SIZE, total: 25 } });
    expect(sized.list).toEqual(tokens.slice(0, DEFAULT_PAGE_SIZE));
    await sized.load();
    expect(smaller.backend.calls).toHaveLength(0);
    expect(sized.page).toMatchObject({ current: 1, pageSize: 10, total: 25 });
    expect(sized.list).toEqual(tokens.slice(0, 10));

    // A larger size than the brought page holds: asked for.
    localStorage.setItem(PAGE_SIZE_KEY, '50');
    const larger = rootWith(tokens, brought);
    const wide = await larger.root.store('accessTokens');
    expect(wide.page.pageSize).toBe(DEFAULT_PAGE_SIZE);
    await wide.load();
    expect(larger.backend.calls.map((c) => c.body)).toEqual([
      { include_expired: true, pagination: { current_page: 1, page_size: 50 } },
    ]);
    expect(wide.list).toEqual(tokens);

    // A larger size, but the brought page is every token: no call.
    const few = many(3);
    const all = rootWith(few, { 'access-tokens': { page: first(few) } });
    const whole = await all.root.store('accessTokens');
    await whole.load();
    expect(all.backend.calls).toHaveLength(0);
    expect(whole.page).toMatchObject({ pageSize: 50, total: 3 });
    expect(whole.list).toEqual(few);
  });

  it('asks when the brought page is not the one it would ask or is malformed', async () => {
    const tokens = many(25);
    const token = tokens[0];
    for (const page of [
      { ...first(tokens), access_tokens: [{ ...token, expired: 'no' }] },
      { ...first(tokens), access_tokens: [{ ...token, token_scopes: [1] }] },
      { ...first(tokens), access_tokens: [{ ...token, token: 'pt-secret' }] },
      { ...first(tokens), pages: { current_page: 1, page_size: '20', total_size: 25 } },
      { ...first(tokens), pages: { current_page: 2, page_size: 20, total_size: 25 } },
      first(tokens, 10),
      { access_tokens: [] },
      [null],
      'page',
      undefined,
    ]) {
      const { root, backend } = rootWith(tokens, { 'access-tokens': { page } });
      const store = await root.store('accessTokens');
      expect(store.loaded).toBe(false);
      await store.load();
      expect(backend.calls).toHaveLength(1);
    }
  });
});
