import { beforeAll, describe, expect, it } from 'vitest';
import { Client, orgSeed, useTestServer } from '../kit/server';

describe('CSRF and X-Requested-With', () => {
  const s = useTestServer({ seed: orgSeed('Acme', ['alice'], { signIn: true }) });
  let c: Client;
  beforeAll(() => {
    c = s.clients.alice;
  });

  it('refuses sign-in without X-Requested-With', async () => {
    const a = await new Client(s.url).req('POST', '/users/ajax/login', {
      body: { username: 'alice', password: 'Secret#123' },
      xhr: false,
    });
    expect(a.status).toBe(403);
    expect(a.json).toMatchObject({ status: 403, code: 'XhrRequired' });
    expect(a.headers.getSetCookie()).toEqual([]);
  });

  it('refuses a state change without X-Requested-With even with the right token', async () => {
    const a = await c.req('POST', '/uiless/api/apps:search', { body: {}, xhr: false });
    expect(a.status).toBe(403);
    expect(a.json.code).toBe('XhrRequired');
  });

  it('refuses a state change without or with a wrong CSRF token', async () => {
    const none = await c.req('POST', '/uiless/api/apps:search', { body: {}, csrf: false });
    expect(none.status).toBe(403);
    expect(none.json.code).toBe('CsrfRejected');
    const wrong = await c.req('PUT', '/users/ajax/v1/my/password', {
      body: { new_password: 'Other#456x', old_password: 'Secret#123' },
      headers: { 'x-csrf-token': 'x'.repeat(43) },
    });
    expect(wrong.status).toBe(403);
    expect(wrong.json.code).toBe('CsrfRejected');
  });

  it('accepts a state change with both headers', async () => {
    const ok = await c.req('POST', '/uiless/api/apps:search', { body: {} });
    expect(ok.status).toBe(200);
    expect(ok.json.results.map((r: { identity: string }) => r.identity)).toEqual(['codeup', 'packages']);
  });

  it('the token of one session does not work for another', async () => {
    const other = new Client(s.url);
    await other.login('alice', 'Secret#123');
    const a = await other.req('POST', '/uiless/api/apps:search', { body: {}, headers: { 'x-csrf-token': c.csrf! } });
    expect(a.status).toBe(403);
  });

  it('answers 401 to a state change without a session', async () => {
    const a = await new Client(s.url).req('PUT', '/users/ajax/v1/my/password', {
      body: { new_password: 'Other#456x' },
    });
    expect(a.status).toBe(401);
    expect(a.json.code).toBe('Unauthorized');
  });
});
