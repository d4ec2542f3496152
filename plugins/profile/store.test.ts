import { describe, expect, it } from 'vitest';
import { fakeBackend, ok, serviceError, type FakeRoutes } from '../../tests/kit/fake-backend';
import { rootStoreWithPageData, TEST_USER } from '../../tests/kit/web';
import { SessionStore } from '../../src/core/stores/SessionStore';
import { sniffImageKind } from './limits';
import { checkAvatarFile, ProfileStore } from './store';

function setup(routes: FakeRoutes) {
  const backend = fakeBackend(routes);
  const session = new SessionStore(backend.client, 'zh_CN');
  session.user = { ...TEST_USER, organization_id: null };
  return { store: new ProfileStore(backend.client, session), session, calls: backend.calls, backend };
}

const PNG_HEAD = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

describe('profile store', () => {
  it('tells image kinds by magic bytes only', () => {
    expect(sniffImageKind(new Uint8Array(PNG_HEAD))).toBe('png');
    expect(sniffImageKind(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpg');
    expect(sniffImageKind(new TextEncoder().encode('GIF89a'))).toBe('gif');
    expect(sniffImageKind(new TextEncoder().encode('<svg xmlns'))).toBeNull();
    expect(sniffImageKind(new Uint8Array([0x89, 0x50]))).toBeNull();
  });

  it('refuses a renamed or oversized file in the browser, before any upload', async () => {
    expect(await checkAvatarFile(new File(['<svg/>'], 'a.png', { type: 'image/png' }))).toBe(
      'profile.avatar.formatError',
    );
    const big = new File([new Uint8Array(PNG_HEAD), new Uint8Array(1024 * 1024 - 7)], 'a.png');
    expect(await checkAvatarFile(big)).toBe('profile.avatar.sizeError');
    const { store, calls } = setup({});
    const r = await store.uploadAvatar(new File(['hello'], 'x.png'));
    expect(r).toEqual({ ok: false, failure: { id: 'profile.avatar.formatError' } });
    expect(calls).toHaveLength(0);
    expect(store.avatarSaving).toBe(false);
  });

  it('switches the UI language only after the service saved it; a failure says so', async () => {
    const { store, session, calls } = setup({
      'PUT /users/ajax/v1/my/preferences': ok({ language: 'en_US' }),
      'PUT /api/ajax/teambition/api/users/language': ok({ language: 'en_US' }),
    });
    expect(await store.setLanguage('en_US')).toEqual({ ok: true });
    expect(session.locale).toBe('en_US');
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'PUT /users/ajax/v1/my/preferences',
      'PUT /api/ajax/teambition/api/users/language',
    ]);
    expect(calls[1].body).toEqual({ language: 'en_US' });

    // A server failure: only the central notice (with the requestId), nothing more from the page.
    const failing = setup({ 'PUT /users/ajax/v1/my/preferences': serviceError(503, 'SystemError', 'x', 'req-3') });
    expect(await failing.store.setLanguage('en_US')).toEqual({ ok: false, failure: undefined });
    expect(failing.backend.notices.map((n) => n.requestId)).toEqual(['req-3']);
    expect(failing.session.locale).toBe('zh_CN');
    expect(failing.store.languageSaving).toBe(false);

    // A refusal: the page's own 'switching failed'.
    const refused = setup({
      'PUT /users/ajax/v1/my/preferences': ok({ language: 'en_US' }),
      'PUT /api/ajax/teambition/api/users/language': serviceError(400, 'InvalidParam', 'bad language'),
    });
    expect(await refused.store.setLanguage('en_US')).toEqual({
      ok: false,
      failure: { id: 'profile.language.failed' },
    });
    expect(refused.session.locale).toBe('zh_CN');
  });

  it('shows a colour scheme only after the service kept it on the account; a failure leaves the theme', async () => {
    const { store, session, calls } = setup({
      'PUT /users/ajax/v1/my/appearance': (r) => ok({ colorScheme: (r.body as { colorScheme: string }).colorScheme }),
    });
    expect(session.colorScheme).toBe('system');
    const saving = store.setColorScheme('dark');
    expect(store.colorSchemeSaving).toBe(true);
    expect(session.colorScheme).toBe('system');
    expect(await saving).toEqual({ ok: true });
    expect(store.colorSchemeSaving).toBe(false);
    expect(session.colorScheme).toBe('dark');
    expect(session.user?.colorScheme).toBe('dark');
    expect(calls.map((c) => [`${c.method} ${c.path}`, c.body])).toEqual([
      ['PUT /users/ajax/v1/my/appearance', { colorScheme: 'dark' }],
    ]);
    // The scheme the account has already: nothing to save.
    expect(await store.setColorScheme('dark')).toEqual({ ok: true });
    expect(calls).toHaveLength(1);

    // A refusal shows the service's text (in the reader's language); the theme stays.
    const refused = setup({
      'PUT /users/ajax/v1/my/appearance': serviceError(
        400,
        'ProfileColorSchemeInvalid',
        'must be system, light or dark',
      ),
    });
    expect(await refused.store.setColorScheme('light')).toEqual({
      ok: false,
      failure: { text: 'must be system, light or dark' },
    });
    expect(refused.session.colorScheme).toBe('system');
    expect(refused.store.colorSchemeSaving).toBe(false);
    // A server failure: the central notice alone; offline: the page's own 'saving failed'.
    const failing = setup({ 'PUT /users/ajax/v1/my/appearance': serviceError(503, 'SystemError', 'x', 'req-7') });
    expect(await failing.store.setColorScheme('dark')).toEqual({ ok: false, failure: undefined });
    expect(failing.backend.notices.map((n) => n.requestId)).toEqual(['req-7']);
    expect(failing.session.colorScheme).toBe('system');
    const offline = setup({
      'PUT /users/ajax/v1/my/appearance': () => {
        throw new TypeError('network down');
      },
    });
    expect(await offline.store.setColorScheme('dark')).toEqual({
      ok: false,
      failure: { id: 'profile.appearance.failed' },
    });
    expect(offline.session.colorScheme).toBe('system');
  });

  it('binding updates the session user and starts the resend countdown from the server times', async () => {
    const { store, session } = setup({
      'POST /users/ajax/v1/my/emails:bind': ok({
        email: 'a@example.com',
        email_verified: false,
        resend_available_at: 160_000,
        server_time: 100_000,
      }),
    });
    const before = Date.now();
    expect(await store.sendActivation('bind', ' a@example.com ')).toEqual({ ok: true });
    expect(session.user?.email).toBe('a@example.com');
    expect(store.resendAvailableAt! - before).toBeGreaterThanOrEqual(60_000);
    expect(store.resendAvailableAt! - before).toBeLessThan(61_000);
    expect(store.emailSaving).toBe(false);
  });

  it('shows the server catalogue message on a refused call, the central notice alone on a 5xx, the fallback offline', async () => {
    const refused = setup({
      'POST /users/ajax/v1/my/emails:bind': serviceError(429, 'ProfileEmailTooFrequent', 'try again in one minute'),
    });
    expect(await refused.store.sendActivation('resend', 'a@example.com')).toEqual({
      ok: false,
      failure: { text: 'try again in one minute' },
    });
    expect(refused.backend.notices).toHaveLength(0);
    // A failed mail send is a 502: the notice with its requestId says it, the page adds nothing.
    const sendFailed = setup({
      'POST /users/ajax/v1/my/emails:rebind': serviceError(502, 'ProfileEmailSendFailed', 'mail failed', 'req-5'),
    });
    expect(await sendFailed.store.sendActivation('rebind', 'b@example.com')).toEqual({
      ok: false,
      failure: { id: 'profile.email.sendError' },
    });
    expect(sendFailed.backend.notices.map((n) => n.requestId)).toEqual(['req-5']);
    expect(sendFailed.store.emailSaving).toBe(false);
    const offline = setup({
      'POST /individual/proxy/my/email:unbind': () => {
        throw new TypeError('network down');
      },
    });
    expect(await offline.store.unbindEmail()).toEqual({ ok: true }); // nothing bound: nothing to do
    offline.session.user!.email = 'a@example.com';
    expect(await offline.store.unbindEmail()).toEqual({ ok: false, failure: { id: 'profile.email.unbindFailed' } });
  });

  it('a first password carries the proof the account has: the code mailed for it, or the directory password', async () => {
    const { store, session, calls } = setup({
      'POST /users/ajax/v1/my/emails:code': ok({
        sent_to: 't***@example.com',
        resend_available_at: 161_000,
        server_time: 100_000,
      }),
      'PUT /users/ajax/v1/my/password': ok({ success: true }),
    });
    store.seed({ has_password: false, directory: null });
    // Neither a password nor an address: nothing to prove with.
    expect(store.passwordProof).toBeNull();
    session.user!.email = 'tp@example.com';
    expect(store.passwordProof).toBe('code');
    expect(await store.sendEmailCode('password')).toEqual({ ok: true });
    expect(calls[0].body).toEqual({ purpose: 'password' });
    expect(store.codeSentTo).toBe('t***@example.com');
    expect(await store.changePassword('Chosen#2024', { old: 'not asked', code: '123456' })).toEqual({ ok: true });
    expect(calls[1].body).toEqual({ new_password: 'Chosen#2024', code: '123456' });
    // Now it has one: the next change gives it.
    expect(store.passwordProof).toBe('password');
    expect(await store.changePassword('Chosen#2025', { old: 'Chosen#2024', code: '123456' })).toEqual({ ok: true });
    expect(calls[2].body).toEqual({ new_password: 'Chosen#2025', old_password: 'Chosen#2024' });

    const dir = setup({
      'PUT /users/ajax/v1/my/password': serviceError(503, 'DirectoryUnavailable', 'The directory…', 'req-9'),
    });
    dir.store.seed({ has_password: false, directory: 'Example LDAP' });
    expect(dir.store.passwordProof).toBe('directory');
    expect(await dir.store.changePassword('Local#Pass1', { old: 'Lin#Pass-1' })).toEqual({
      ok: false,
      failure: { id: 'profile.email.directoryUnavailable' },
    });
    expect(dir.calls[0].body).toEqual({ new_password: 'Local#Pass1', old_password: 'Lin#Pass-1' });
    expect(dir.store.passwordProof).toBe('directory');
  });

  it('verifies a token once even when asked twice', async () => {
    const { store, session, calls, backend } = setup({
      'POST /uiless/api/apps:search': ok({ results: [] }),
      'GET /individual/proxy/me': () => ok({ ...session.user, email_verified: true }),
      'POST /individual/proxy/my/email:verify': ok({
        email: 'a@example.com',
        email_verified: true,
        resend_available_at: null,
        server_time: 1,
      }),
    });
    await Promise.all([store.verifyEmail('t'), store.verifyEmail('t')]);
    expect(backend.callsTo('POST /individual/proxy/my/email:verify')).toHaveLength(1);
    expect(store.verification.state).toBe('done');
    // The session user is read again afterwards (it may have been loaded before the token was spent).
    expect(calls.find((c) => c.path === '/individual/proxy/me')?.query).toEqual({ with_email_info: 'true' });
    expect(session.loading).toBe(false);
    expect(session.user?.email_verified).toBe(true);
  });
});

describe('profile store seeded by the page', () => {
  const ATTRIBUTES = 'GET /users/ajax/v1/my/attributes:bind';
  const rootWith = (plugins?: Record<string, unknown>) => {
    const backend = fakeBackend({
      [ATTRIBUTES]: ok({ has_password: true, directory: null, email: null, email_verified: false }),
    });
    return { root: rootStoreWithPageData({ profile: () => import('./store') }, backend, plugins), backend };
  };

  it("takes the attributes the page brought: the page's first load calls nothing, the next one asks", async () => {
    const { root, backend } = rootWith({ profile: { attributes: { has_password: false, email: null } } });
    const store = await root.store('profile');
    expect(store.loaded).toBe(true);
    expect(store.hasPassword).toBe(false);
    await store.load();
    expect(backend.callsTo(ATTRIBUTES)).toHaveLength(0);
    await store.load();
    expect(backend.callsTo(ATTRIBUTES)).toHaveLength(1);
    expect(store.hasPassword).toBe(true);
  });

  it('a directory account: the attributes name its directory; its first password with the directory down is explained', async () => {
    const { root, backend } = rootWith({
      profile: { attributes: { has_password: false, directory: 'Example LDAP', email: 'lin@example.org' } },
    });
    const store = await root.store('profile');
    expect(store.directory).toBe('Example LDAP');
    expect(store.hasPassword).toBe(false);
    backend.on(
      'PUT /users/ajax/v1/my/password',
      serviceError(503, 'DirectoryUnavailable', 'The directory cannot be reached', 'req-7'),
    );
    expect(await store.changePassword('Lin#New-2', { old: 'Lin#Pass-1' })).toEqual({
      ok: false,
      failure: { id: 'profile.email.directoryUnavailable' },
    });
    expect(backend.callsTo('PUT /users/ajax/v1/my/password')[0].body).toEqual({
      new_password: 'Lin#New-2',
      old_password: 'Lin#Pass-1',
    });
    expect(backend.notices.map((n) => n.requestId)).toEqual(['req-7']);
    // A later read of an account without a directory says so.
    await store.load();
    await store.load();
    expect(store.directory).toBeNull();
  });

  it('asks as before when the page brought nothing usable', async () => {
    for (const plugins of [undefined, { profile: { attributes: { has_password: 'no' } } }, { profile: 'x' }]) {
      const { root, backend } = rootWith(plugins);
      const store = await root.store('profile');
      expect(store.loaded).toBe(false);
      await store.load();
      expect(backend.callsTo(ATTRIBUTES)).toHaveLength(1);
    }
  });
});
