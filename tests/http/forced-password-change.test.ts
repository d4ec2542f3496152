import { describe, expect, it } from 'vitest';
import { Client, useTestServer } from '../kit/server';
import { createToken } from '../../plugins/access-tokens/server/service';

// A user created with --must-change-password does nothing through the service before the change: every session
// call but the change itself and `me` answers 403 PasswordChangeRequired, the open API refuses their tokens; the
// pages and sign-out stay reachable, so the web app can send them to the change.
const START = 'Start#123';
const FRESH = 'Brand#New9';
const CHANGE = '/users/ajax/v1/my/password';
const DAY = 24 * 60 * 60 * 1000;
const ALLOWED = new Set(['GET /individual/proxy/me', `PUT ${CHANGE}`]);

describe('the forced password change, enforced by the service', () => {
  const s = useTestServer({
    seed: {
      orgs: { Acme: ['codeup', 'packages'] },
      users: {
        alice: { password: START, org: 'Acme' },
        newbie: { password: START, org: 'Acme', mustChangePassword: true },
        leaver: { password: START, org: 'Acme', mustChangePassword: true },
      },
    },
  });

  const signedIn = async (username: string) => {
    const c = new Client(s.url);
    const a = await c.login(username, START);
    expect(a.status, a.text).toBe(200);
    return { c, mustChange: a.json.must_change_password as boolean };
  };
  const tokenBody = () => ({
    name: 'ci',
    description: 'for tests',
    expires_at: new Date(s.clock.now().getTime() + 30 * DAY).toISOString(),
    token_scopes: ['base:user:read'],
  });

  /** Every API operation of the OpenAPI document, with its path parameters filled in. */
  async function operations(): Promise<Array<{ method: string; path: string; name: string }>> {
    const doc = (await new Client(s.url).req('GET', '/api/docs/json')).json as {
      paths: Record<string, Record<string, unknown>>;
    };
    return Object.entries(doc.paths).flatMap(([p, ops]) =>
      Object.keys(ops)
        .filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
        .map((m) => ({
          method: m.toUpperCase(),
          path: p.replace(/\{[^}]+\}/g, 'x0000000000000000000000x'),
          name: `${m.toUpperCase()} ${p}`,
        })),
    );
  }
  const send = (c: Client, op: { method: string; path: string }) =>
    c.req(op.method, op.path, op.method === 'GET' ? {} : { body: {} });

  it('answers 403 PasswordChangeRequired to every session call but the change and me, until the change is done', async () => {
    const { c, mustChange } = await signedIn('newbie');
    expect(mustChange).toBe(true);
    const ops = await operations();
    const refused: string[] = [];
    const reachable: string[] = [];
    for (const op of ops) {
      // What nobody signed in gets: 401 marks a call that needs a session.
      const anonymous = await send(new Client(s.url), op);
      if (anonymous.status !== 401 || op.path.startsWith('/oapi/')) continue;
      const a = await send(c, op);
      if (a.status === 403 && a.json.code === 'PasswordChangeRequired') refused.push(op.name);
      else reachable.push(op.name);
    }
    expect(reachable.sort()).toEqual([...ALLOWED].sort());
    // The refusals cover the whole settings API (tokens, SSH keys, profile, inbox, organisations…).
    expect(refused.length).toBeGreaterThan(30);
    for (const name of [
      'POST /users/ajax/v1/my/tokens',
      'POST /users/ajax/v1/my/tokens:search',
      'PUT /individual/proxy/me',
      'POST /users/ajax/v1/notifications/inbox/messages:list',
    ])
      expect(refused, name).toContain(name);
    const refusal = await c.req('POST', '/users/ajax/v1/my/tokens', { body: tokenBody() });
    expect(refusal.status).toBe(403);
    expect(Object.keys(refusal.json).sort()).toEqual(['code', 'message', 'requestId', 'status']);
    expect(refusal.json.message).toBe('请先修改密码再继续操作。');
    expect(await s.ctx.db.selectFrom('personal_access_tokens').select('id').execute()).toEqual([]);

    // The pages and `me` are served, `me` says what is pending.
    expect((await c.req('GET', '/users/settings/profile', { xhr: false })).status).toBe(200);
    const me = await c.req('GET', '/individual/proxy/me');
    expect([me.status, me.json.must_change_password]).toEqual([200, true]);

    // The change (CSRF token and all) lifts it at once.
    const changed = await c.req('PUT', CHANGE, { body: { new_password: FRESH, old_password: START } });
    expect(changed.status, changed.text).toBe(200);
    const made = await c.req('POST', '/users/ajax/v1/my/tokens', { body: tokenBody() });
    expect(made.status, made.text).toBe(200);
    expect((await c.req('GET', '/individual/proxy/me')).json.must_change_password).toBe(false);
  });

  it('refuses the open API to the tokens of a user who must change the password', async () => {
    await s.seed({ users: { flagged: { password: START, org: 'Acme' } } });
    const { c } = await signedIn('flagged');
    const made = await c.req('POST', '/users/ajax/v1/my/tokens', { body: tokenBody() });
    expect(made.status, made.text).toBe(200);
    const asToken = (token: string) =>
      new Client(s.url).req('GET', '/oapi/v1/platform/user', { headers: { 'x-yunxiao-token': token }, xhr: false });
    expect((await asToken(made.json.token)).status).toBe(200);
    // Flagged afterwards (as an administrator's reset would): the token stops working until the change.
    await s.ctx.db.updateTable('users').set({ must_change_password: 1 }).where('username', '=', 'flagged').execute();
    const refused = await asToken(made.json.token);
    expect([refused.status, refused.json.code]).toEqual([403, 'PasswordChangeRequired']);
    // A token made for the user by other means is refused the same.
    const other = await s.ctx.db.selectFrom('users').select('id').where('username', '=', 'alice').executeTakeFirst();
    await s.ctx.db.updateTable('users').set({ must_change_password: 1 }).where('id', '=', other!.id).execute();
    const direct = await createToken(s.ctx, other!.id, tokenBody());
    expect((await asToken(direct.token!)).json.code).toBe('PasswordChangeRequired');

    const session = (await signedIn('flagged')).c;
    expect((await session.req('PUT', CHANGE, { body: { new_password: FRESH, old_password: START } })).status).toBe(200);
    expect((await asToken(made.json.token)).status).toBe(200);
  });

  it('lets a user who must change the password sign out', async () => {
    const { c } = await signedIn('leaver');
    const out = await c.req('POST', '/users/logout', { body: {} });
    expect(out.status).toBe(303);
    expect((await c.req('GET', '/individual/proxy/me')).status).toBe(401);
  });
});
