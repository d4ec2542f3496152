import { describe, expect, it } from 'vitest';
import { Client, useTestServer } from '../kit/server';
import { issueToken } from '../../plugins/access-tokens/server/tokens';
import { SESSION_COOKIE } from '../../server/auth/sessions';
import { SCOPE_USER_READ } from '../../server/routes/oapi';

describe('logs', () => {
  const s = useTestServer();

  it('never contain a password, token, code, CSRF token or session id, and carry the request id', async () => {
    const password = 'Secret#123Pw';
    const user = (await s.seed({ users: { alice: { password } } })).users.alice;
    const { token } = await issueToken(s.ctx.db, s.clock, {
      userId: user.id,
      name: 't',
      scopes: [SCOPE_USER_READ],
      expiresAt: null,
    });
    const c = new Client(s.url);
    await c.req('POST', '/users/ajax/login', { body: { username: 'alice', password: 'Wrong#pass77' } });
    await c.login('alice', password);
    const session = c.cookies.get(SESSION_COOKIE)!;
    await c.req('GET', '/individual/proxy/me');
    await c.req('GET', '/users/settings/profile');
    await c.req('PUT', '/users/ajax/v1/my/password', {
      body: { new_password: 'NewSecret#456', old_password: password },
    });
    await c.req('GET', '/oapi/v1/platform/user', { headers: { 'x-yunxiao-token': token } });
    await c.req('GET', '/oapi/v1/platform/user', { headers: { authorization: `Bearer ${token}` } });
    await c.req('GET', `/oapi/v1/platform/user?private_token=${token}`);
    await c.req('GET', `/users/ajax/users/alice/check?code=987654&password=${encodeURIComponent(password)}`);
    await c.req('POST', '/users/ajax/login', { raw: `{"username":"alice","password":"${password}",` });
    await s.ctx.mailer.send({ to: 'alice@example.com', subject: 'Your code', text: 'code 987654' });
    await c.req('POST', '/users/logout', { body: {} });

    const all = s.logs.join('');
    expect(s.logs.length).toBeGreaterThan(10);
    for (const secret of [password, 'Wrong#pass77', 'NewSecret#456', token, session, c.csrf!, '987654']) {
      expect(all, `log leaks ${secret.slice(0, 4)}…`).not.toContain(secret);
    }
    const requestLines = s.logs.map((l) => JSON.parse(l)).filter((l) => l.req || l.res);
    expect(requestLines.length).toBeGreaterThan(0);
    for (const l of requestLines) expect(l.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });
});
