import { describe, expect, it } from 'vitest';
import { Client, orgSeed, useTestServer } from '../kit/server';
import { SESSION_COOKIE } from '../../server/auth/sessions';
import { sha256 } from '../../server/auth/random';

const MIN = 60 * 1000;

describe('sessions', () => {
  const s = useTestServer({ seed: orgSeed('Acme', ['alice']) });

  it('sets an HttpOnly SameSite=Lax cookie with at least 128 random bits, stored only as a digest', async () => {
    const res = await fetch(`${s.url}/users/ajax/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
      body: JSON.stringify({ username: 'alice', password: 'Secret#123' }),
    });
    expect(res.status).toBe(200);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i);
    const value = cookie.split(';')[0].split('=')[1];
    expect(Buffer.from(value, 'base64url').length).toBeGreaterThanOrEqual(16);
    const rows = await s.ctx.db.selectFrom('sessions').selectAll().execute();
    expect(rows.some((r) => r.id_hash === value)).toBe(false);
    expect(rows.some((r) => r.id_hash === sha256(value))).toBe(true);
  });

  it('rotates the session id at sign-in and ends the previous session', async () => {
    const c = new Client(s.url);
    expect((await c.login('alice', 'Secret#123')).status).toBe(200);
    const first = c.cookies.get(SESSION_COOKIE)!;
    expect((await c.login('alice', 'Secret#123')).status).toBe(200);
    const second = c.cookies.get(SESSION_COOKIE)!;
    expect(second).not.toBe(first);
    const old = new Client(s.url);
    old.cookies.set(SESSION_COOKIE, first);
    expect((await old.req('GET', '/individual/proxy/me')).status).toBe(401);
    expect((await c.req('GET', '/individual/proxy/me')).status).toBe(200);
  });

  it('answers /me for the signed-in user and 401 in the error shape without a session', async () => {
    const c = new Client(s.url);
    const anon = await c.req('GET', '/individual/proxy/me?with_email_info=true');
    expect(anon.status).toBe(401);
    expect(anon.json).toMatchObject({ status: 401, code: 'Unauthorized' });
    await c.login('alice', 'Secret#123');
    const me = await c.req('GET', '/individual/proxy/me?with_email_info=true');
    expect(me.status).toBe(200);
    expect(me.json).toMatchObject({ username: 'alice', must_change_password: false, email_verified: false });
    expect(me.json.organization_id).toMatch(/^[0-9a-f]{24}$/);
  });

  it('ends a session after 30 idle minutes; activity keeps it alive', async () => {
    const c = new Client(s.url);
    await c.login('alice', 'Secret#123');
    s.clock.advance(29 * MIN);
    expect((await c.req('GET', '/individual/proxy/me')).status).toBe(200);
    s.clock.advance(29 * MIN);
    expect((await c.req('GET', '/individual/proxy/me')).status).toBe(200);
    s.clock.advance(30 * MIN);
    expect((await c.req('GET', '/individual/proxy/me')).status).toBe(401);
  });

  it('ends a session 12 hours after sign-in even when active', async () => {
    const c = new Client(s.url);
    await c.login('alice', 'Secret#123');
    for (let t = 0; t < 12 * 60 - 20; t += 20) {
      s.clock.advance(20 * MIN);
      expect((await c.req('GET', '/individual/proxy/me')).status).toBe(200);
    }
    s.clock.advance(20 * MIN);
    expect((await c.req('GET', '/individual/proxy/me')).status).toBe(401);
  });

  it('logout ends the session server-side and redirects only to validated next URLs', async () => {
    const c = new Client(s.url);
    await c.login('alice', 'Secret#123');
    const cookie = c.cookies.get(SESSION_COOKIE)!;
    // With the session's CSRF token (the client sends it as X-CSRF-Token); a bare GET only asks (tests/http/logout).
    const out = await c.req('POST', '/users/logout?next=%2Fusers%2Fsettings%2Fprofile', { body: {} });
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('/users/settings/profile');
    const replay = new Client(s.url);
    replay.cookies.set(SESSION_COOKIE, cookie);
    expect((await replay.req('GET', '/individual/proxy/me')).status).toBe(401);

    for (const bad of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)']) {
      const r = await new Client(s.url).req('GET', `/users/logout?next=${encodeURIComponent(bad)}`);
      expect(r.headers.get('location')).toBe('/users/login');
    }
    // Without PUBLIC_URL only paths pass: the service's own address (from the Host header) is not trusted.
    const same = await new Client(s.url).req(
      'GET',
      `/users/logout?next=${encodeURIComponent(`${s.url}/users/settings`)}`,
    );
    expect(same.headers.get('location')).toBe('/users/login');
  });
});

describe('sessions behind https', () => {
  const s = useTestServer({
    env: { PUBLIC_URL: 'https://devops.example.com' },
    seed: { users: { bob: { password: 'Secret#123' } } },
  });

  it('marks the cookie Secure when PUBLIC_URL is https', async () => {
    const a = await new Client(s.url).req('POST', '/users/ajax/login', {
      body: { username: 'bob', password: 'Secret#123' },
    });
    expect(a.status).toBe(200);
    expect(a.headers.getSetCookie().join('\n')).toMatch(/; Secure/i);
  });
});
