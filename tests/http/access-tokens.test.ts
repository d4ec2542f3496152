import { beforeAll, describe, expect, it } from 'vitest';
import { Client, useTestServer } from '../kit/server';
import { sha256 } from '../../server/auth/random';
import { TOKEN_PREFIX } from '../../server/auth/tokens';
import { isWellFormedToken } from '../../plugins/access-tokens/server/tokens';
import { SCOPE_CATALOGUE } from '../../server/auth/token-scopes';
import { expiresAtForPreset } from '../../plugins/access-tokens/expiry';

const DAY = 24 * 60 * 60 * 1000;
const TOKENS = '/users/ajax/v1/my/tokens';
const LEGACY = '/users/ajax/v1/tokens';

describe('personal access tokens (settings page calls)', () => {
  const s = useTestServer({
    seed: {
      orgs: { 'Token Org': ['codeup', 'packages'] },
      users: {
        alice: { password: 'Secret#123', org: 'Token Org' },
        bob: { password: 'Secret#456', org: 'Token Org' },
      },
      signIn: ['alice', 'bob'],
    },
  });
  let alice: Client;
  let bob: Client;
  let aliceId: string;
  let bobId: string;
  const oapi = (token: string, path = '/oapi/v1/platform/user') =>
    new Client(s.url).req('GET', path, { headers: { 'x-yunxiao-token': token }, xhr: false });
  const inDays = (days: number) => new Date(s.clock.now().getTime() + days * DAY).toISOString();
  const create = (c: Client, body: Record<string, unknown>) =>
    c.req('POST', TOKENS, {
      body: { description: 'for tests', expires_at: inDays(30), token_scopes: ['base:user:read'], ...body },
    });
  const search = (c: Client, body: Record<string, unknown> = {}) => c.req('POST', `${TOKENS}:search`, { body });
  const row = (id: string) =>
    s.ctx.db.selectFrom('personal_access_tokens').selectAll().where('id', '=', id).executeTakeFirst();

  // Sessions idle out after 30 minutes: tests that move the clock sign in again.
  const signInAll = async () => {
    ({ alice, bob } = await s.signIn());
  };

  beforeAll(() => {
    ({ alice, bob } = s.clients);
    aliceId = s.users.alice.id;
    bobId = s.users.bob.id;
  });

  it('lifecycle: value shown once, digest stored, used on the open API, edited, deleted and then refused', async () => {
    const created = await create(alice, { name: 'ci', description: 'build server' });
    expect(created.status).toBe(200);
    const t = created.json;
    expect(isWellFormedToken(t.token)).toBe(true);
    expect(t).toMatchObject({
      name: 'ci',
      description: 'build server',
      token_scopes: ['base:user:read'],
      expired: false,
      last_used_at: null,
      // The server clock decides the creation time (a client's created_at is refused, see below).
      created_at: s.clock.now().toISOString(),
    });

    // Only the digest is stored; the list never shows the value again.
    const stored = await row(t.token_id);
    expect(stored!.token_digest).toBe(sha256(t.token));
    expect(JSON.stringify(stored)).not.toContain(t.token.slice(TOKEN_PREFIX.length));
    const listed = await search(alice);
    expect(listed.text).not.toContain(t.token.slice(TOKEN_PREFIX.length));
    expect(listed.json.access_tokens[0]).not.toHaveProperty('token');
    expect(listed.json.access_tokens[0].token_id).toBe(t.token_id);

    const me = await oapi(t.token);
    expect(me.status).toBe(200);
    expect(me.json).toMatchObject({ id: aliceId, username: 'alice' });
    expect((await search(alice)).json.access_tokens[0].last_used_at).toBe(s.clock.now().toISOString());

    // Edit: drop the user scope for the organisation one; the open API follows at once.
    const edited = await alice.req('PUT', `${TOKENS}/${t.token_id}`, {
      body: { name: 'ci-renamed', token_scopes: ['organization:info:read'], expires_at: inDays(60) },
    });
    expect(edited.status).toBe(200);
    expect(edited.json).toMatchObject({
      name: 'ci-renamed',
      description: 'build server',
      token_scopes: ['organization:info:read'],
      expires_at: inDays(60),
    });
    expect(edited.json).not.toHaveProperty('token');
    expect((await oapi(t.token)).status).toBe(403);
    const orgs = await oapi(t.token, '/oapi/v1/platform/organizations');
    expect(orgs.status).toBe(200);
    expect(orgs.json.organizations.map((o: { name: string }) => o.name)).toEqual(['Token Org']);

    const del = await alice.req('DELETE', `${TOKENS}/${t.token_id}`);
    expect(del.status).toBe(200);
    expect(await row(t.token_id)).toBeUndefined();
    const refused = await oapi(t.token, '/oapi/v1/platform/organizations');
    expect(refused.status).toBe(401);
    expect(refused.json.code).toBe('TokenInvalid');
    const again = await alice.req('DELETE', `${TOKENS}/${t.token_id}`);
    expect(again.status).toBe(404);
    expect(again.json.code).toBe('AccessTokenNotFound');
  });

  it('expiry: end of the chosen day minus 2 s is stored as sent; usable until then, refused and frozen after', async () => {
    const expiresAt = expiresAtForPreset(30, s.clock.now());
    const end = new Date(expiresAt);
    const endOfDay = new Date(end.getTime() + 2000);
    // 23:59:57.999 local time of the day 30 days ahead: the next millisecond + 2 s is local midnight.
    expect(new Date(endOfDay.getTime() + 1).getHours()).toBe(0);
    expect(new Date(endOfDay.getTime() + 1).getMinutes()).toBe(0);
    expect(Math.round((endOfDay.getTime() - s.clock.now().getTime()) / DAY)).toBeGreaterThanOrEqual(30);

    const t = (await create(alice, { name: 'thirty', expires_at: expiresAt })).json;
    expect(t.expires_at).toBe(expiresAt);
    expect((await row(t.token_id))!.expires_at).toBe(end.getTime());

    const saved = s.clock.now();
    try {
      s.clock.set(end.getTime() - 1);
      expect((await oapi(t.token)).status).toBe(200);
      s.clock.set(end.getTime());
      const expired = await oapi(t.token);
      expect(expired.status).toBe(401);
      expect(expired.json.code).toBe('TokenInvalid');
      await signInAll();

      const listed = (await search(alice)).json.access_tokens.find(
        (x: { token_id: string }) => x.token_id === t.token_id,
      );
      expect(listed.expired).toBe(true);
      const edit = await alice.req('PUT', `${TOKENS}/${t.token_id}`, {
        body: { name: 'revived', token_scopes: ['base:user:read'], expires_at: inDays(10) },
      });
      expect(edit.status).toBe(409);
      expect(edit.json.code).toBe('AccessTokenExpired');
      expect((await row(t.token_id))!.name).toBe('thirty');
      expect((await oapi(t.token)).status).toBe(401);
      // Expired tokens can still be cleaned up.
      expect((await alice.req('DELETE', `${TOKENS}/${t.token_id}`)).status).toBe(200);
    } finally {
      s.clock.set(saved);
      await signInAll();
    }
  });

  it('validates name, description, expiry and scopes', async () => {
    const bad = async (body: Record<string, unknown>, code: string) => {
      const a = await create(alice, body);
      expect(a.status, JSON.stringify(body)).toBe(400);
      expect(a.json.code).toBe(code);
    };
    await bad({ name: '   ' }, 'AccessTokenNameRequired');
    await bad({ name: 'x'.repeat(201) }, 'InvalidParameter');
    await bad({ name: 'ok', description: 'd'.repeat(201) }, 'InvalidParameter');
    // A description is 1 to 200 characters: missing or empty breaks the contract, spaces alone are no description.
    await bad({ name: 'ok', description: undefined }, 'InvalidParameter');
    await bad({ name: 'ok', description: '' }, 'InvalidParameter');
    const blank = await create(alice, { name: 'ok', description: '   ' });
    expect(blank.status).toBe(400);
    expect(Object.keys(blank.json).sort()).toEqual(['code', 'message', 'requestId', 'status']);
    expect(blank.json).toMatchObject({ status: 400, code: 'AccessTokenDescriptionRequired' });
    // The creation time is the server's: a client's created_at is a field the contract does not know.
    const withCreatedAt = await create(alice, { name: 'ok', created_at: inDays(-100) });
    expect(withCreatedAt.status).toBe(400);
    expect(Object.keys(withCreatedAt.json).sort()).toEqual(['code', 'message', 'requestId', 'status']);
    expect(withCreatedAt.json).toMatchObject({ status: 400, code: 'InvalidParameter' });
    await bad({ name: 'ok', expires_at: inDays(-1) }, 'AccessTokenExpiryInvalid');
    await bad({ name: 'ok', expires_at: s.clock.now().toISOString() }, 'AccessTokenExpiryInvalid');
    await bad({ name: 'ok', expires_at: 'tomorrow' }, 'InvalidParameter');
    await bad({ name: 'ok', token_scopes: [] }, 'AccessTokenScopeRequired');
    await bad({ name: 'ok', token_scopes: ['base:user:admin'] }, 'AccessTokenScopeUnknown');
    await bad({ name: 'ok', token_scopes: ['nope:thing:read'] }, 'AccessTokenScopeUnknown');
    await bad({ name: 'ok', token_scopes: ['base'] }, 'AccessTokenScopeUnknown');
    await bad({ name: 'ok', token_scopes: ['base:user:write'] }, 'AccessTokenScopeReadOnly');
    const missing = await alice.req('POST', TOKENS, { body: { name: 'ok', token_scopes: ['base:user:read'] } });
    expect(missing.status).toBe(400);
    const extra = await create(alice, { name: 'ok', owner: bobId });
    expect(extra.status).toBe(400);
    expect((await create(alice, { name: 'x'.repeat(200), description: 'd'.repeat(200) })).status).toBe(200);
  });

  it('scope tree: the catalogue as areas and resources; a parent grants all children, write implies read', async () => {
    const tree = await alice.req('GET', '/users/ajax/v1/tokens:scopes', {
      headers: { cookie: `${alice.cookieHeader()}; ak_user_locale=en_US` },
    });
    expect(tree.status).toBe(200);
    const areas = tree.json.token_scopes;
    expect(areas.map((a: { scope_key: string }) => a.scope_key)).toEqual([
      'organization',
      'projex',
      'codeup',
      'flow',
      'packages',
      'testhub',
      'base',
    ]);
    const codeup = areas.find((a: { scope_key: string }) => a.scope_key === 'codeup');
    expect(codeup).toMatchObject({ scope_operate: 'read_write', scope_desc: 'Code repositories' });
    expect(codeup.sub_scopes).toContainEqual({
      scope_key: 'codeup:commit',
      scope_operate: 'read',
      scope_desc: 'Commits',
      sub_scopes: [],
    });
    const base = areas.find((a: { scope_key: string }) => a.scope_key === 'base');
    expect(base).toMatchObject({
      scope_operate: 'read',
      sub_scopes: [{ scope_key: 'base:user', scope_operate: 'read' }],
    });
    const zh = await alice.req('GET', '/users/ajax/v1/tokens:scopes', {
      headers: { cookie: `${alice.cookieHeader()}; ak_user_locale=zh_CN` },
    });
    expect(zh.json.token_scopes[2].scope_desc).toBe('代码管理');
    // The page sends its own language, which wins over cookie and Accept-Language.
    const asked = await alice.req('GET', '/users/ajax/v1/tokens:scopes?locale=zh_CN', {
      headers: { 'accept-language': 'en-US' },
    });
    expect(asked.json.token_scopes[2].scope_desc).toBe('代码管理');
    expect((await alice.req('GET', '/users/ajax/v1/tokens:scopes?locale=fr')).status).toBe(400);

    // Selecting a parent selects all its children (read-only ones stay read-only).
    const all = await create(alice, { name: 'all-code', token_scopes: ['codeup:write'] });
    expect(all.json.token_scopes).toEqual([
      'codeup:repository:write',
      'codeup:branch:write',
      'codeup:merge-request:write',
      'codeup:commit:read',
    ]);
    // Write supersedes read for the same resource; duplicates go; catalogue order.
    const mixed = await create(alice, {
      name: 'mixed',
      token_scopes: [
        'base:user:read',
        'codeup:read',
        'codeup:repository:write',
        'codeup:read',
        'organization:member:read',
      ],
    });
    expect(mixed.json.token_scopes).toEqual([
      'organization:member:read',
      'codeup:repository:write',
      'codeup:branch:read',
      'codeup:merge-request:read',
      'codeup:commit:read',
      'base:user:read',
    ]);
    // Enforced by the open API: a write grant covers read; another area's grant does not.
    expect((await oapi(mixed.json.token, '/oapi/v1/platform/user')).status).toBe(200);
    const noOrg = await oapi(mixed.json.token, '/oapi/v1/platform/organizations');
    expect(noOrg.status).toBe(403);
    expect(noOrg.json.code).toBe('InsufficientScope');
    const org = await create(alice, { name: 'org', token_scopes: ['organization:read'] });
    expect((await oapi(org.json.token, '/oapi/v1/platform/organizations')).status).toBe(200);
    expect((await oapi(org.json.token)).status).toBe(403);

    // Every catalogue resource can be granted read; write only where it is offered.
    // A fresh minute, then two creations every 5 s: within the per-user creation limit (60 a minute).
    s.clock.advance(60_000);
    for (const area of SCOPE_CATALOGUE)
      for (const r of area.resources) {
        s.clock.advance(5_000);
        expect((await create(alice, { name: r.key, token_scopes: [`${r.key}:read`] })).status).toBe(200);
        const w = await create(alice, { name: r.key, token_scopes: [`${r.key}:write`] });
        expect(w.status).toBe(r.operate === 'read_write' ? 200 : 400);
      }
  });

  it('pagination (default 20, remembered by the page) and include_expired (default true)', async () => {
    const { pager: c } = (await s.seed({ users: { pager: { password: 'Secret#789' } }, signIn: ['pager'] })).clients;
    for (let i = 0; i < 23; i++) {
      expect((await create(c, { name: `t${i}`, expires_at: inDays(i < 3 ? 1 : 90) })).status).toBe(200);
      s.clock.advance(1000);
    }
    const first = await search(c);
    expect(first.json.pages).toEqual({ current_page: 1, page_size: 20, total_size: 23 });
    expect(first.json.access_tokens).toHaveLength(20);
    expect(first.json.access_tokens[0].name).toBe('t22');
    const second = await search(c, { include_expired: true, pagination: { current_page: 2, page_size: 20 } });
    expect(second.json.access_tokens.map((t: { name: string }) => t.name)).toEqual(['t2', 't1', 't0']);
    const small = await search(c, { pagination: { current_page: 3, page_size: 10 } });
    expect(small.json.access_tokens).toHaveLength(3);
    expect((await search(c, { pagination: { current_page: 1, page_size: 101 } })).status).toBe(400);
    expect((await search(c, { pagination: { current_page: 0, page_size: 10 } })).status).toBe(400);

    const saved = s.clock.now();
    s.clock.advance(2 * DAY);
    await c.login('pager', 'Secret#789');
    try {
      const withExpired = await search(c, { pagination: { current_page: 2, page_size: 20 } });
      expect(withExpired.json.access_tokens.every((t: { expired: boolean }) => t.expired)).toBe(true);
      const live = await search(c, { include_expired: false, pagination: { current_page: 1, page_size: 50 } });
      expect(live.json.pages.total_size).toBe(20);
      expect(live.json.access_tokens.some((t: { expired: boolean }) => t.expired)).toBe(false);
    } finally {
      s.clock.set(saved);
      await signInAll();
    }
  });

  it('another user’s token: every id-addressed call answers 404 and nothing changes', async () => {
    const t = (await create(alice, { name: 'mine', token_scopes: ['base:user:read'] })).json;
    const before = await row(t.token_id);
    const body = { name: 'stolen', token_scopes: ['codeup:write'], expires_at: inDays(90) };
    for (const base of [TOKENS, LEGACY]) {
      const put = await bob.req('PUT', `${base}/${t.token_id}`, { body });
      expect(put.status).toBe(404);
      expect(put.json.code).toBe('AccessTokenNotFound');
      const del = await bob.req('DELETE', `${base}/${t.token_id}`);
      expect(del.status).toBe(404);
      expect(del.json.code).toBe('AccessTokenNotFound');
    }
    // Same answer as an id that does not exist at all.
    const ghost = await bob.req('DELETE', `${TOKENS}/000000000000000000000000`);
    expect(ghost.status).toBe(404);
    expect(ghost.json.code).toBe('AccessTokenNotFound');
    expect(await row(t.token_id)).toEqual(before);
    expect((await oapi(t.token)).status).toBe(200);
    expect((await search(bob)).json.access_tokens.some((x: { token_id: string }) => x.token_id === t.token_id)).toBe(
      false,
    );
    const batch = await bob.req('POST', '/users/ajax/v1/tokens:batch', { body: { user_id: aliceId } });
    expect(batch.status).toBe(404);
    expect(batch.text).not.toContain(t.token_id);
  });

  it('legacy calls, tokens:batch and tokens:permissions', async () => {
    const seeded = await s.seed({ users: { legacy: { password: 'Secret#789' } }, signIn: ['legacy'] });
    const c = seeded.clients.legacy;
    const legacyId = seeded.users.legacy.id;
    const created = await c.req('POST', LEGACY, {
      body: { name: 'old screen', description: 'v1', token_scopes: ['flow:pipeline:write'], expires_at: inDays(7) },
    });
    expect(created.status).toBe(200);
    expect(isWellFormedToken(created.json.token)).toBe(true);
    const id = created.json.token_id;
    const put = await c.req('PUT', `${LEGACY}/${id}`, {
      body: { name: 'renamed', token_scopes: ['flow:read'], expires_at: inDays(8) },
    });
    expect(put.json.token_scopes).toEqual([
      'flow:pipeline:read',
      'flow:pipeline-run:read',
      'flow:service-connection:read',
    ]);

    const batch = await c.req('POST', '/users/ajax/v1/tokens:batch', { body: { user_id: legacyId } });
    expect(batch.status).toBe(200);
    expect(batch.json.access_tokens.map((t: { name: string }) => t.name)).toEqual(['renamed']);
    expect(batch.json.access_tokens[0]).not.toHaveProperty('token');
    expect(batch.json.token_scopes.length).toBe(SCOPE_CATALOGUE.length);

    expect((await c.req('DELETE', `${LEGACY}/${id}`)).status).toBe(200);
    expect(
      (await c.req('POST', '/users/ajax/v1/tokens:batch', { body: { user_id: legacyId } })).json.access_tokens,
    ).toEqual([]);

    const perms = await c.req('GET', '/users/ajax/v1/tokens:permissions');
    expect(perms.status).toBe(200);
    expect(perms.json.permissions.map((p: { permission_key: string }) => p.permission_key)).toEqual(['read', 'write']);
    expect(perms.json).toMatchObject({
      expiry_presets_days: [7, 30, 60, 90],
      name_max_length: 200,
      description_max_length: 200,
    });
  });

  it('needs a session, X-Requested-With and the CSRF token', async () => {
    const anon = new Client(s.url);
    expect((await anon.req('POST', `${TOKENS}:search`, { body: {} })).status).toBe(401);
    expect((await anon.req('GET', '/users/ajax/v1/tokens:scopes')).status).toBe(401);
    const noCsrf = await alice.req('POST', TOKENS, {
      body: { name: 'x', token_scopes: ['base:user:read'], expires_at: inDays(1) },
      csrf: false,
    });
    expect(noCsrf.status).toBe(403);
    const noXhr = await alice.req('POST', TOKENS, {
      body: { name: 'x', token_scopes: ['base:user:read'], expires_at: inDays(1) },
      xhr: false,
    });
    expect(noXhr.status).toBe(403);
    // A token is not a session: it cannot manage tokens.
    const t = (await create(alice, { name: 'no-manage' })).json.token;
    const viaToken = await new Client(s.url).req('POST', `${TOKENS}:search`, {
      body: {},
      headers: { 'x-yunxiao-token': t },
    });
    expect(viaToken.status).toBe(401);
  });
});
