import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBackend, serviceError } from '../../tests/kit/fake-backend';
import { PATHS } from './api';
import { SecurityStore, webAuthnFailure } from './store';
import {
  securityBackend,
  TEST_REGISTRATION_OPTIONS,
  TEST_TOTP,
  testBrowser,
  testEntry,
  testPasskey,
  testRecoveryCodes,
  testSession,
} from './test-backend';

/** The browser's WebAuthn helper, mocked: a unit test has no authenticator (e2e uses Chromium's virtual one). */
const { startRegistration } = vi.hoisted(() => ({ startRegistration: vi.fn() }));
vi.mock('@simplewebauthn/browser', () => ({ startRegistration }));

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

describe('TwoFactorStore', () => {
  beforeEach(() => startRegistration.mockReset());

  it('loads with the other parts; on, few codes left, an organization asking', async () => {
    const backend = securityBackend({
      twoFactor: {
        totp: { since: '2026-11-01T00:00:00.000Z' },
        recovery_codes_left: 2,
        required_by: { org: 'Acme', deadline: '2026-12-01T00:00:00.000Z' },
      },
    });
    const store = new SecurityStore(backend.client);
    expect(store.twoFactor.loading).toBe(true);
    await store.load();
    expect(store.twoFactor).toMatchObject({ loading: false, loaded: true, failed: false, enabled: true });
    expect(store.twoFactor.codesLow).toBe(true);
    expect(store.twoFactor.data.required_by?.org).toBe('Acme');
  });

  it('sets up the app: a secret, a wrong code explained, the right one brings the first factor’s codes', async () => {
    const backend = securityBackend({ history: [testEntry('h1')] });
    const store = new SecurityStore(backend.client);
    await store.load();
    const tf = store.twoFactor;
    expect(tf.enabled).toBe(false);
    const starting = tf.startTotp();
    expect(tf.starting).toBe(true);
    expect(await starting).toEqual({ ok: true });
    expect(tf.setup?.secret).toBe(TEST_TOTP.secret);

    expect(await tf.confirmTotp('000000')).toEqual({
      ok: false,
      failure: { id: 'security.twoFactor.totp.error.wrongCode' },
    });
    expect(tf.setup).not.toBeNull();
    expect(await tf.confirmTotp(TEST_TOTP.code)).toEqual({ ok: true });
    expect(backend.callsTo(`POST ${PATHS.totpConfirm}`).map((c) => c.body)).toEqual([
      { code: '000000' },
      { code: TEST_TOTP.code },
    ]);
    expect(tf.setup).toBeNull();
    expect(tf.enabled).toBe(true);
    expect(tf.codes).toEqual(testRecoveryCodes(1));
    expect(tf.data.recovery_codes_left).toBe(10);
    expect(tf.changed).toBe(true);
    // The history shows the change.
    await vi.waitFor(() => expect(backend.callsTo(`GET ${PATHS.history}`)).toHaveLength(2));
    tf.codesSaved();
    tf.dismissChanged();
    expect([tf.codes, tf.changed]).toEqual([null, false]);

    // Set up again (a new phone): no new codes; then removed, the codes go with the last factor.
    await tf.startTotp();
    await tf.confirmTotp(TEST_TOTP.code);
    expect(tf.codes).toBeNull();
    expect(await tf.removeTotp()).toEqual({ ok: true });
    expect(tf.data).toMatchObject({ totp: null, recovery_codes_left: 0 });
    expect(tf.enabled).toBe(false);
    expect(tf.removingTotp).toBe(false);
  });

  it('the last factor stays while an organization requires one: the service says why', async () => {
    const backend = securityBackend({
      twoFactor: {
        passkeys: [testPasskey('pk1')],
        recovery_codes_left: 10,
        required_by: { org: 'Acme', deadline: '2026-12-01T00:00:00.000Z' },
      },
    });
    const store = new SecurityStore(backend.client);
    await store.twoFactor.load();
    expect(await store.twoFactor.removePasskey('pk1')).toEqual({ ok: false, failure: { text: 'Acme requires one' } });
    expect(store.twoFactor.passkeys.map((p) => p.id)).toEqual(['pk1']);
    expect(store.twoFactor.editing).toBeNull();
  });

  it('adds a passkey: options, the browser’s prompt, its answer stored under the name', async () => {
    const answer = { id: 'cred', rawId: 'cred', type: 'public-key' };
    startRegistration.mockResolvedValue(answer);
    const backend = securityBackend({ twoFactor: { totp: { since: '2026-11-01T00:00:00.000Z' } } });
    const store = new SecurityStore(backend.client);
    await store.twoFactor.load();
    const adding = store.twoFactor.addPasskey('Work laptop');
    expect(store.twoFactor.adding).toBe(true);
    expect(await adding).toEqual({ ok: true });
    expect(store.twoFactor.adding).toBe(false);
    expect(startRegistration).toHaveBeenCalledWith({ optionsJSON: TEST_REGISTRATION_OPTIONS });
    expect(backend.callsTo(`POST ${PATHS.passkeys}`).map((c) => c.body)).toEqual([
      { name: 'Work laptop', response: answer },
    ]);
    expect(store.twoFactor.passkeys.map((p) => p.name)).toEqual(['Work laptop']);
    // Not the first factor: no codes to show.
    expect(store.twoFactor.codes).toBeNull();
    expect(store.twoFactor.changed).toBe(true);
  });

  it('a prompt closed, a key already added, anything else: said in the page’s words, nothing stored', async () => {
    const backend = securityBackend();
    const store = new SecurityStore(backend.client);
    await store.twoFactor.load();
    const named = (name: string, code?: string) => Object.assign(new Error('x'), { name, code });
    const cases: Array<[unknown, string]> = [
      [named('NotAllowedError', 'ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY'), 'security.twoFactor.passkeys.error.cancelled'],
      [
        named('InvalidStateError', 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED'),
        'security.twoFactor.passkeys.error.registered',
      ],
      [named('SecurityError', 'ERROR_INVALID_RP_ID'), 'security.twoFactor.passkeys.error.origin'],
      [named('UnknownError'), 'security.twoFactor.passkeys.error.browser'],
    ];
    for (const [error, id] of cases) {
      startRegistration.mockRejectedValueOnce(error);
      expect(await store.twoFactor.addPasskey('Key')).toEqual({ ok: false, failure: { id } });
    }
    expect(backend.callsTo(`POST ${PATHS.passkeys}`)).toHaveLength(0);
    expect(store.twoFactor.adding).toBe(false);
    expect(webAuthnFailure(undefined)).toEqual({ id: 'security.twoFactor.passkeys.error.browser' });
  });

  it('renames and removes passkeys; one removed elsewhere leaves the list', async () => {
    const backend = securityBackend({
      twoFactor: { passkeys: [testPasskey('pk1'), testPasskey('pk2')], recovery_codes_left: 10 },
    });
    const store = new SecurityStore(backend.client);
    await store.twoFactor.load();
    expect(await store.twoFactor.renamePasskey('pk1', 'Phone')).toEqual({ ok: true });
    expect(backend.callsTo(`PATCH ${PATHS.passkey}`).map((c) => [c.path, c.body])).toEqual([
      ['/users/ajax/v1/my/two-factor/passkeys/pk1', { name: 'Phone' }],
    ]);
    expect(store.twoFactor.passkeys.map((p) => p.name)).toEqual(['Phone', 'Key pk2']);
    expect(await store.twoFactor.removePasskey('pk1')).toEqual({ ok: true });
    expect(store.twoFactor.passkeys.map((p) => p.id)).toEqual(['pk2']);

    backend.twoFactor.passkeys.length = 0;
    expect(await store.twoFactor.renamePasskey('pk2', 'x')).toEqual({
      ok: false,
      failure: { id: 'security.twoFactor.passkeys.error.notFound' },
    });
    await vi.waitFor(() => expect(store.twoFactor.passkeys).toEqual([]));
  });

  it('new recovery codes replace the count and are held for the one-time display', async () => {
    const backend = securityBackend({ twoFactor: { passkeys: [testPasskey('pk1')], recovery_codes_left: 1 } });
    const store = new SecurityStore(backend.client);
    await store.twoFactor.load();
    expect(store.twoFactor.codesLow).toBe(true);
    expect(await store.twoFactor.newRecoveryCodes()).toEqual({ ok: true });
    expect(store.twoFactor.codes).toEqual(testRecoveryCodes(1));
    expect(store.twoFactor).toMatchObject({ codesLow: false, regenerating: false, changed: true });
    expect(store.twoFactor.data.recovery_codes_left).toBe(10);
  });

  it('every change asks for a proof first: proved, it goes through; dismissed, nothing more is said', async () => {
    let proved = true;
    const asked: string[] = [];
    const backend = securityBackend();
    const inner = backend.client;
    let first = true;
    const gated = fakeBackend(
      {
        [`POST ${PATHS.totp}`]: async () => {
          if (first || !proved) {
            first = false;
            return serviceError(403, 'ReauthRequired', 'Confirm it is you');
          }
          const [, setup] = await inner.post(PATHS.totp, {});
          return { body: setup };
        },
      },
      { reauthenticate: async (error) => (asked.push(error.url), proved) },
    );
    const tf = new SecurityStore(gated.client).twoFactor;
    expect(await tf.startTotp()).toEqual({ ok: true });
    expect(tf.setup?.secret).toBe(TEST_TOTP.secret);
    expect(gated.callsTo(`POST ${PATHS.totp}`)).toHaveLength(2);
    tf.cancelTotp();
    expect(tf.setup).toBeNull();
    proved = false;
    expect(await tf.startTotp()).toEqual({ ok: false, failure: undefined });
    expect(tf.setup).toBeNull();
    expect(asked).toEqual([PATHS.totp, PATHS.totp]);
    expect(gated.notices).toHaveLength(0);
  });
});
