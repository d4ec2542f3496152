import { describe, expect, it } from 'vitest';
import { fakeBackend, serviceError } from '../../tests/kit/fake-backend';
import { PATHS } from './api';
import { SecurityStore } from './store';
import { securityBackend, testBrowser, testEntry, testSession } from './test-backend';

const here = testSession('s-here', { current: true });
const other = testSession('s-other', { browser: { name: 'Safari', version: '18', os: 'macOS' } });
const third = testSession('s-third', { method: 'dingtalk' });

describe('SecurityStore', () => {
  it('loads sessions, trusted browsers and the first page of history side by side; loading stops', async () => {
    const backend = securityBackend({
      sessions: [here, other],
      browsers: [testBrowser('b1', { current: true })],
      history: [testEntry('h1'), testEntry('h2'), testEntry('h3')],
    });
    const store = new SecurityStore(backend.client);
    expect([store.sessions.loading, store.browsers.loading, store.history.loading]).toEqual([true, true, true]);
    await store.load();
    expect(store.sessions).toMatchObject({ loading: false, loaded: true, failed: false });
    expect(store.sessions.sessions.map((s) => s.id)).toEqual(['s-here', 's-other']);
    expect(store.sessions.others.map((s) => s.id)).toEqual(['s-other']);
    expect(store.sessions.data).toMatchObject({ idle_timeout_minutes: 120, absolute_timeout_hours: 24 });
    expect(store.browsers.browsers.map((b) => b.id)).toEqual(['b1']);
    expect(store.history.entries.map((e) => e.id)).toEqual(['h1', 'h2']);
    expect(store.history.next).toBe('h3');
  });

  it('a failed list says so on its own and is empty; a 500 shows the central notice', async () => {
    const backend = securityBackend({
      sessions: [here],
      fail: (c) => (c.path === PATHS.trustedBrowsers ? { status: 500, code: 'SystemError' } : undefined),
    });
    const store = new SecurityStore(backend.client);
    await store.load();
    expect(store.browsers).toMatchObject({ loading: false, failed: true, browsers: [] });
    expect(store.sessions).toMatchObject({ failed: false });
    expect(backend.notices.map((n) => n.requestId)).toEqual(['r1']);
  });

  it('ends one session and all the others; one already ended leaves the list and is explained', async () => {
    const backend = securityBackend({ sessions: [here, other, third] });
    const store = new SecurityStore(backend.client);
    await store.sessions.load();
    const ending = store.sessions.end('s-other');
    expect(store.sessions.ending).toBe('s-other');
    expect(await ending).toEqual({ ok: true });
    expect(store.sessions.ending).toBeNull();
    expect(backend.callsTo(`DELETE ${PATHS.session}`).map((c) => c.path)).toEqual([
      '/users/ajax/v1/my/sessions/s-other',
    ]);
    expect(store.sessions.sessions.map((s) => s.id)).toEqual(['s-here', 's-third']);

    // Ended meanwhile elsewhere: the service says so; the row goes and the page says why.
    backend.sessions.splice(backend.sessions.indexOf(third), 1);
    expect(await store.sessions.end('s-third')).toEqual({
      ok: false,
      failure: { id: 'security.sessions.error.notFound' },
    });
    expect(store.sessions.sessions.map((s) => s.id)).toEqual(['s-here']);

    backend.sessions.push(other, third);
    await store.sessions.load();
    expect(await store.sessions.endOthers()).toEqual({ ok: true, ended: 2 });
    expect(store.sessions.sessions.map((s) => s.id)).toEqual(['s-here']);
    expect(store.sessions.endingOthers).toBe(false);
  });

  it('a call refused for want of a proof is repeated once proved; dismissed, the page adds nothing', async () => {
    let proved = true;
    const asked: string[] = [];
    const ends = [serviceError(403, 'ReauthRequired', 'Confirm it is you'), { body: { ended: 1 } }];
    const backend = fakeBackend(
      {
        [`GET ${PATHS.sessions}`]: {
          body: { sessions: [here, other, third], idle_timeout_minutes: 1, absolute_timeout_hours: 1 },
        },
        [`POST ${PATHS.endOthers}`]: () => ends.shift() ?? serviceError(403, 'ReauthRequired', 'Confirm it is you'),
        [`DELETE ${PATHS.session}`]: () => serviceError(403, 'ReauthRequired', 'Confirm it is you'),
      },
      // The core's dialog: the person proves it is them, or closes it.
      { reauthenticate: async (error) => (asked.push(error.url), proved) },
    );
    const store = new SecurityStore(backend.client);
    await store.sessions.load();
    expect(await store.sessions.endOthers()).toEqual({ ok: true, ended: 1 });
    expect(backend.callsTo(`POST ${PATHS.endOthers}`)).toHaveLength(2);
    expect(store.sessions.sessions.map((s) => s.id)).toEqual(['s-here']);
    proved = false;
    await store.sessions.load();
    expect(await store.sessions.end('s-other')).toEqual({ ok: false, failure: undefined });
    expect(store.sessions.sessions).toHaveLength(3);
    expect(asked).toEqual(['/users/ajax/v1/my/sessions:end-others', '/users/ajax/v1/my/sessions/s-other']);
    expect(backend.notices).toHaveLength(0);
  });

  it('a refusal the service explains shows its text; offline, the action’s own message', async () => {
    const backend = fakeBackend({
      [`GET ${PATHS.sessions}`]: {
        body: { sessions: [here, other], idle_timeout_minutes: 1, absolute_timeout_hours: 1 },
      },
      [`POST ${PATHS.endOthers}`]: serviceError(409, 'Other', 'Explained by the service.'),
      [`DELETE ${PATHS.session}`]: () => {
        throw new TypeError('network down');
      },
    });
    const store = new SecurityStore(backend.client);
    await store.sessions.load();
    expect(await store.sessions.endOthers()).toEqual({ ok: false, failure: { text: 'Explained by the service.' } });
    expect(await store.sessions.end('s-other')).toEqual({
      ok: false,
      failure: { id: 'security.sessions.error.endFailed' },
    });
    expect(store.sessions.sessions).toHaveLength(2);
  });

  it('forgets a trusted browser; one already forgotten leaves the list too', async () => {
    const backend = securityBackend({ browsers: [testBrowser('b1'), testBrowser('b2')] });
    const store = new SecurityStore(backend.client);
    await store.browsers.load();
    expect(await store.browsers.forget('b1')).toEqual({ ok: true });
    expect(store.browsers.browsers.map((b) => b.id)).toEqual(['b2']);
    backend.browsers.length = 0;
    expect(await store.browsers.forget('b2')).toEqual({
      ok: false,
      failure: { id: 'security.browsers.error.notFound' },
    });
    expect(store.browsers.browsers).toEqual([]);
    expect(store.browsers.forgetting).toBeNull();
  });

  it('history: load more with the cursor, a filter from the first page, a stale cursor starts again', async () => {
    const entries = [
      testEntry('h1'),
      testEntry('h2', { kind: 'password.changed', detail: { how: 'settings' } }),
      testEntry('h3'),
      testEntry('h4', { kind: 'password.changed', detail: {} }),
      testEntry('h5'),
    ];
    const backend = securityBackend({ history: entries });
    const store = new SecurityStore(backend.client);
    await store.history.load();
    expect(await store.history.loadMore()).toEqual({ ok: true });
    expect(store.history.entries.map((e) => e.id)).toEqual(['h1', 'h2', 'h3', 'h4']);
    expect(backend.calls.at(-1)?.query).toEqual({ cursor: 'h3' });
    await store.history.loadMore();
    expect(store.history.entries.map((e) => e.id)).toEqual(['h1', 'h2', 'h3', 'h4', 'h5']);
    expect(store.history.next).toBeNull();
    // Nothing more to load: no call.
    const calls = backend.calls.length;
    expect(await store.history.loadMore()).toEqual({ ok: true });
    expect(backend.calls).toHaveLength(calls);

    await store.history.setGroup('password');
    expect(backend.calls.at(-1)?.query).toEqual({ group: 'password' });
    expect(store.history.entries.map((e) => e.id)).toEqual(['h2', 'h4']);
    expect(store.history.exportUrl).toBe('/users/ajax/v1/my/history.csv?group=password');
    await store.history.setGroup(null);
    expect(store.history.exportUrl).toBe('/users/ajax/v1/my/history.csv');

    // The service no longer takes the cursor: the page says so and the list starts again from the first page.
    entries.splice(2, 1);
    expect(await store.history.loadMore()).toEqual({ ok: false, failure: { id: 'security.history.error.cursor' } });
    expect(store.history.entries.map((e) => e.id)).toEqual(['h1', 'h2']);
    expect(store.history.next).toBe('h4');
  });

  it('a filter chosen while a load is in flight wins over the older answer', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const backend = fakeBackend({
      [`GET ${PATHS.history}`]: async (call) => {
        if (!call.query.group) await held;
        return { body: { entries: [testEntry(call.query.group ?? 'all')], next: null } };
      },
    });
    const store = new SecurityStore(backend.client);
    const first = store.history.load();
    await store.history.setGroup('lock');
    release();
    await first;
    expect(store.history.entries.map((e) => e.id)).toEqual(['lock']);
  });

  it('"this wasn\'t me" sends the lock choice, then the lists show what is left', async () => {
    const backend = securityBackend({
      sessions: [here, other, third],
      revoked: [{ credential: 'token', count: 3 }],
      history: [testEntry('h1')],
    });
    const store = new SecurityStore(backend.client);
    await store.load();
    const r = await store.notMe(true);
    expect(r).toEqual({
      ok: true,
      result: { sessions_ended: 2, credentials: [{ credential: 'token', count: 3 }], locked: true },
    });
    expect(backend.callsTo(`POST ${PATHS.notMe}`).map((c) => c.body)).toEqual([{ lock: true }]);
    expect(store.sessions.sessions.map((s) => s.id)).toEqual(['s-here']);
    expect(backend.callsTo(`GET ${PATHS.history}`)).toHaveLength(2);
    expect(store.saving).toBe(false);
  });
});
