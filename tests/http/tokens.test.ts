import { beforeAll, describe, expect, it } from 'vitest';
import { Client, useTestServer } from '../kit/server';
import { hasScope, TOKEN_PREFIX } from '../../server/auth/tokens';
import {
  generateToken,
  isWellFormedToken,
  issueToken,
  verifyToken,
  deleteToken,
} from '../../plugins/access-tokens/server/tokens';
import { sha256 } from '../../server/auth/random';
import { SCOPE_USER_READ } from '../../server/routes/oapi';

const DAY = 24 * 60 * 60 * 1000;

describe('personal access token authentication', () => {
  const s = useTestServer({ seed: { users: { alice: { password: 'Secret#123', email: 'a@example.com' } } } });
  let userId: string;
  let token: string;
  const call = (headers: Record<string, string>, query = '') =>
    new Client(s.url).req('GET', `/oapi/v1/platform/user${query}`, { headers, xhr: false });

  beforeAll(async () => {
    userId = s.users.alice.id;
    token = (
      await issueToken(s.ctx.db, s.clock, {
        userId,
        name: 'ci',
        scopes: [SCOPE_USER_READ],
        expiresAt: new Date(s.clock.now().getTime() + 30 * DAY),
      })
    ).token;
  });

  it('accepts the token in x-yunxiao-token and in Authorization: Bearer', async () => {
    const a = await call({ 'x-yunxiao-token': token });
    expect(a.status).toBe(200);
    expect(a.json).toMatchObject({ id: userId, username: 'alice', email: 'a@example.com' });
    expect((await call({ authorization: `Bearer ${token}` })).status).toBe(200);
  });

  it('refuses a token in the query string, even a valid one', async () => {
    for (const q of [`?private_token=${token}`, `?access_token=${token}`, `?t=${token}`]) {
      const a = await call({}, q);
      expect(a.status).toBe(401);
      expect(a.json.code).toBe('TokenInQuery');
    }
    expect((await call({ 'x-yunxiao-token': token }, `?token=${token}`)).status).toBe(401);
  });

  it('stores only the SHA-256 digest', async () => {
    const rows = await s.ctx.db.selectFrom('personal_access_tokens').selectAll().execute();
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(token);
    expect(dump).not.toContain(token.slice(TOKEN_PREFIX.length, TOKEN_PREFIX.length + 20));
    expect(rows.map((r) => r.token_digest)).toContain(sha256(token));
  });

  it('answers 403 when the token lacks the scope', async () => {
    const other = await issueToken(s.ctx.db, s.clock, {
      userId,
      name: 'repo',
      scopes: ['codeup:repo:read'],
      expiresAt: null,
    });
    const a = await call({ 'x-yunxiao-token': other.token });
    expect(a.status).toBe(403);
    expect(a.json.code).toBe('InsufficientScope');
  });

  it('answers 401 to an expired token and to a deleted one', async () => {
    const short = await issueToken(s.ctx.db, s.clock, {
      userId,
      name: 'short',
      scopes: ['base'],
      expiresAt: new Date(s.clock.now().getTime() + DAY),
    });
    expect((await call({ 'x-yunxiao-token': short.token })).status).toBe(200);
    s.clock.advance(DAY);
    const expired = await call({ 'x-yunxiao-token': short.token });
    expect(expired.status).toBe(401);
    expect(expired.json.code).toBe('TokenInvalid');

    const gone = await issueToken(s.ctx.db, s.clock, {
      userId,
      name: 'gone',
      scopes: [SCOPE_USER_READ],
      expiresAt: null,
    });
    expect((await call({ authorization: `Bearer ${gone.token}` })).status).toBe(200);
    expect(await deleteToken(s.ctx.db, userId, gone.record.id)).toBe(true);
    expect((await call({ authorization: `Bearer ${gone.token}` })).status).toBe(401);
  });

  it('rejects malformed tokens and bad checksums before any database lookup', async () => {
    const t = generateToken();
    expect(isWellFormedToken(t)).toBe(true);
    const typo = t.slice(0, 10) + (t[10] === 'a' ? 'b' : 'a') + t.slice(11);
    expect(isWellFormedToken(typo)).toBe(false);
    // A closed database proves no query is made for a malformed token.
    const broken = {
      selectFrom: () => {
        throw new Error('database touched');
      },
    } as never;
    expect(await verifyToken(broken, s.clock, typo)).toEqual({ ok: false, reason: 'malformed' });
    expect(await verifyToken(broken, s.clock, 'ghp_something')).toEqual({ ok: false, reason: 'malformed' });
    expect((await call({ 'x-yunxiao-token': typo })).status).toBe(401);
    expect((await call({})).status).toBe(401);
  });

  it('does not accept a session cookie on the open API', async () => {
    const c = new Client(s.url);
    await c.login('alice', 'Secret#123');
    expect((await c.req('GET', '/oapi/v1/platform/user')).status).toBe(401);
  });

  it('records the last use, writing at most every 5 minutes', async () => {
    const t = await issueToken(s.ctx.db, s.clock, {
      userId,
      name: 'usage',
      scopes: [SCOPE_USER_READ],
      expiresAt: null,
    });
    const lastUsed = async () =>
      (
        await s.ctx.db
          .selectFrom('personal_access_tokens')
          .select('last_used_at')
          .where('id', '=', t.record.id)
          .executeTakeFirstOrThrow()
      ).last_used_at;
    expect(await lastUsed()).toBeNull();
    await call({ 'x-yunxiao-token': t.token });
    const first = await lastUsed();
    expect(first).toBe(s.clock.now().getTime());
    s.clock.advance(60 * 1000);
    await call({ 'x-yunxiao-token': t.token });
    expect(await lastUsed()).toBe(first);
    s.clock.advance(5 * 60 * 1000);
    await call({ 'x-yunxiao-token': t.token });
    expect(await lastUsed()).toBe(s.clock.now().getTime());
  });

  it('scope rules: prefixes cover children, write implies read', () => {
    expect(hasScope(['base'], 'base:user:read')).toBe(true);
    expect(hasScope(['base:user:write'], 'base:user:read')).toBe(true);
    expect(hasScope(['base:user:read'], 'base:user:write')).toBe(false);
    expect(hasScope(['codeup'], 'base:user:read')).toBe(false);
  });
});
