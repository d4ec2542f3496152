import { describe, expect, it, vi } from 'vitest';
import { createRequestClient } from '../../src/core/request';
import { SessionStore } from '../../src/core/stores/SessionStore';
import { sniffImageKind } from './contract';
import { checkAvatarFile, ProfileStore } from './store';

type Handler = (url: string, init: RequestInit) => { status: number; body?: unknown };

function setup(handler: Handler) {
  const calls: Array<{ url: string; method: string; body: unknown }> = [];
  const fetch = vi.fn(async (url: string, init: RequestInit) => {
    calls.push({ url, method: init.method ?? 'GET', body: init.body });
    const r = handler(url, init);
    return new Response(r.body === undefined ? '' : JSON.stringify(r.body), {
      status: r.status,
      headers: { 'content-type': 'application/json' },
    });
  });
  const client = createRequestClient({ fetch: fetch as unknown as typeof globalThis.fetch, showServerError: () => {} });
  const session = new SessionStore(client, 'zh_CN');
  session.user = {
    id: 'u1',
    username: 'alice',
    name: 'Alice',
    email: null,
    email_verified: false,
    avatar: null,
    language: null,
    must_change_password: false,
    organization_id: null,
  };
  return { store: new ProfileStore(client, session), session, calls };
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
    const { store, calls } = setup(() => ({ status: 200, body: {} }));
    const r = await store.uploadAvatar(new File(['hello'], 'x.png'));
    expect(r).toEqual({ ok: false, failure: { id: 'profile.avatar.formatError' } });
    expect(calls).toHaveLength(0);
    expect(store.avatarSaving).toBe(false);
  });

  it('switches the UI language only after the service saved it; a failure says so', async () => {
    const { store, session, calls } = setup(() => ({ status: 200, body: { language: 'en_US' } }));
    expect(await store.setLanguage('en_US')).toEqual({ ok: true });
    expect(session.locale).toBe('en_US');
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'PUT /users/ajax/v1/my/preferences',
      'PUT /api/ajax/teambition/api/users/language',
    ]);
    expect(String(calls[1].body)).toBe('language=en_US');

    const failing = setup(() => ({ status: 503, body: { code: 'SystemError', message: 'x', status: 503 } }));
    expect(await failing.store.setLanguage('en_US')).toEqual({
      ok: false,
      failure: { id: 'profile.language.failed' },
    });
    expect(failing.session.locale).toBe('zh_CN');
    expect(failing.store.languageSaving).toBe(false);
  });

  it('binding updates the session user and starts the resend countdown from the server times', async () => {
    const { store, session } = setup(() => ({
      status: 200,
      body: { email: 'a@example.com', email_verified: false, resend_available_at: 160_000, server_time: 100_000 },
    }));
    const before = Date.now();
    expect(await store.sendActivation('bind', ' a@example.com ')).toEqual({ ok: true });
    expect(session.user?.email).toBe('a@example.com');
    expect(store.resendAvailableAt! - before).toBeGreaterThanOrEqual(60_000);
    expect(store.resendAvailableAt! - before).toBeLessThan(61_000);
    expect(store.emailSaving).toBe(false);
  });

  it('shows the server catalogue message on a refused call and the fallback on a network failure', async () => {
    const refused = setup(() => ({
      status: 429,
      body: { status: 429, code: 'ProfileEmailTooFrequent', message: 'try again in one minute', requestId: 'r' },
    }));
    expect(await refused.store.sendActivation('resend', 'a@example.com')).toEqual({
      ok: false,
      failure: { text: 'try again in one minute' },
    });
    const offline = setup(() => {
      throw new TypeError('network down');
    });
    expect(await offline.store.unbindEmail()).toEqual({ ok: true }); // nothing bound: nothing to do
    offline.session.user!.email = 'a@example.com';
    expect(await offline.store.unbindEmail()).toEqual({ ok: false, failure: { id: 'profile.email.unbindFailed' } });
  });

  it('verifies a token once even when asked twice', async () => {
    const { store, session, calls } = setup((url) => {
      if (url.includes('apps:search')) return { status: 200, body: { results: [] } };
      if (url.includes('/me')) return { status: 200, body: { ...session.user, email_verified: true } };
      return {
        status: 200,
        body: { email: 'a@example.com', email_verified: true, resend_available_at: null, server_time: 1 },
      };
    });
    await Promise.all([store.verifyEmail('t'), store.verifyEmail('t')]);
    expect(calls.filter((c) => c.url.includes('email:verify'))).toHaveLength(1);
    expect(store.verification.state).toBe('done');
    // The session user is read again afterwards (it may have been loaded before the token was spent).
    expect(calls.map((c) => c.url)).toContain('/individual/proxy/me?with_email_info=true');
    expect(session.loading).toBe(false);
    expect(session.user?.email_verified).toBe(true);
  });
});
