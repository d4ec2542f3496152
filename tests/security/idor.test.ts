import crypto from 'node:crypto';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer, type Client } from '../kit/server';
import { expectNoSecrets } from '../kit/secrets';
import { SoftAuthenticator } from '../kit/soft-authenticator';
import { relyingParty } from '../../server/auth/second-factor/index';
import { SECURITY_PATHS } from '../../plugins/security/contract';

// The IDOR matrix: every route the OpenAPI document addresses by an id (path or body), every verb it has, asked by
// a second user of the same organisation and by a user of a second organisation with the first user's ids. None
// may succeed, and none may change anything of the owner's. A new id-addressed route fails the coverage check
// until it has a row here.

const PASSWORD = 'Secret#123';

/** An OpenSSH ed25519 public key line made from a fresh key pair. */
function ed25519Line(comment: string): string {
  const { publicKey } = crypto.generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  const part = (b: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(b.length);
    return Buffer.concat([len, b]);
  };
  return `ssh-ed25519 ${Buffer.concat([part(Buffer.from('ssh-ed25519')), part(raw)]).toString('base64')} ${comment}`;
}

interface Case {
  method: string;
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

describe('IDOR matrix', () => {
  const s = useTestServer({
    env: { TRUST_PROXY: 'loopback' },
    seed: {
      orgs: { Acme: { apps: ['codeup', 'packages'] }, Globex: { apps: ['codeup', 'packages'] } },
      users: {
        alice: { password: PASSWORD, org: 'Acme', email: 'alice@example.com' },
        bob: { password: PASSWORD, org: 'Acme' },
        carol: { password: PASSWORD, org: 'Globex' },
      },
      signIn: ['alice', 'bob', 'carol'],
    },
  });
  const ids = {
    token: '',
    legacyToken: '',
    key: '',
    avatar: '',
    alice: '',
    acme: '',
    globex: '',
    message: '',
    historyCursor: '',
    session: '',
    browser: '',
    passkey: '',
  };
  let cases: Case[] = [];

  /** Everything of alice's a refused request might have changed. */
  const snapshot = async () => {
    const db = s.ctx.db;
    const user = await db.selectFrom('users').selectAll().where('username', '=', 'alice').executeTakeFirstOrThrow();
    return {
      user,
      tokens: await db.selectFrom('personal_access_tokens').selectAll().where('user_id', '=', user.id).execute(),
      keys: await db.selectFrom('ssh_keys').selectAll().where('user_id', '=', user.id).execute(),
      memberships: await db.selectFrom('memberships').selectAll().orderBy('org_id').orderBy('user_id').execute(),
      sessions: (await db.selectFrom('sessions').select('id_hash').where('user_id', '=', user.id).execute()).length,
      passkeys: await db.selectFrom('webauthn_credentials').selectAll().where('user_id', '=', user.id).execute(),
      messages: await db
        .selectFrom('inbox_messages')
        .selectAll()
        .where('user_id', '=', user.id)
        .orderBy('id')
        .execute(),
    };
  };

  beforeAll(async () => {
    const alice = s.clients.alice;
    ids.alice = s.users.alice.id;
    ids.acme = s.orgs.Acme;
    ids.globex = s.orgs.Globex;
    const expires = new Date(s.clock.now().getTime() + 30 * 86_400_000).toISOString();
    const tokenBody = {
      name: 'alice token',
      description: 'idor',
      token_scopes: ['base:user:read'],
      expires_at: expires,
    };
    const t = await alice.req('POST', '/users/ajax/v1/my/tokens', { body: tokenBody });
    expect(t.status, t.text).toBe(200);
    ids.token = t.json.id;
    const lt = await alice.req('POST', '/users/ajax/v1/tokens', { body: { ...tokenBody, name: 'legacy' } });
    expect(lt.status, lt.text).toBe(200);
    ids.legacyToken = lt.json.id;
    const k = await alice.req('POST', '/codeup/api/v3/user/keys', {
      body: { name: 'laptop', key: ed25519Line('a@b') },
    });
    expect(k.status, k.text).toBe(201);
    ids.key = String(k.json.id);
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'a.png');
    const up = await fetch(`${s.url}/objects/ajax/avatars`, {
      method: 'POST',
      body: form,
      headers: { cookie: alice.cookieHeader(), 'x-requested-with': 'XMLHttpRequest', 'x-csrf-token': alice.csrf! },
    });
    expect(up.status).toBe(200);
    ids.avatar = ((await up.json()) as { url: string }).url;

    // The token made a message in alice's inbox (a security message: unread, so not even she may delete it yet).
    const inbox = '/users/ajax/v1/notifications/inbox/messages';
    const list = await alice.req('POST', `${inbox}:list`, { body: {} });
    expect(list.status, list.text).toBe(200);
    ids.message = list.json.messages[0].id;
    await alice.req('POST', `${inbox}/read`, { body: { ids: [list.json.messages[1].id] } });
    // A cursor into alice's history: signed for her account, it opens nobody else's reading of it.
    const history = await alice.req('GET', '/users/ajax/v1/my/history?limit=1');
    expect(history.json?.next, history.text).toBeTruthy();
    ids.historyCursor = history.json.next;
    // Alice's session and the browser the lockout trusts for her, by the handles her security page shows.
    const sessions = await alice.req('GET', '/users/ajax/v1/my/sessions');
    ids.session = sessions.json.sessions[0].id;
    const browsers = await alice.req('GET', '/users/ajax/v1/my/trusted-browsers');
    ids.browser = browsers.json.browsers[0].id;
    // A passkey of alice's, made by an authenticator through her security page.
    const options = await alice.req('POST', SECURITY_PATHS.passkeyOptions);
    expect(options.status, options.text).toBe(200);
    const passkey = await alice.req('POST', SECURITY_PATHS.passkeys, {
      body: { name: 'alice phone', response: new SoftAuthenticator(relyingParty(s.ctx.config)).register(options.json) },
    });
    expect(passkey.status, passkey.text).toBe(200);
    ids.passkey = passkey.json.state.passkeys[0].id;

    const tokenUpdate = { name: 'stolen', token_scopes: ['base:user:read'], expires_at: expires };
    cases = [
      ...['/users/ajax/v1/my/tokens', '/users/ajax/v1/tokens'].flatMap((p) =>
        [ids.token, ids.legacyToken].flatMap((id) => [
          { method: 'PUT', path: `${p}/${id}`, body: tokenUpdate },
          { method: 'DELETE', path: `${p}/${id}` },
        ]),
      ),
      // Regenerate and re-create (issue 42): a stranger's id is somebody else's token, whatever its state.
      {
        method: 'POST',
        path: `/users/ajax/v1/my/tokens/${ids.token}/regenerate`,
        body: { expires_at: expires, grace_minutes: 0 },
      },
      { method: 'POST', path: `/users/ajax/v1/my/tokens/${ids.token}/recreate`, body: { expires_at: expires } },
      { method: 'POST', path: '/users/ajax/v1/tokens:batch', body: { user_id: ids.alice } },
      ...['/codeup/api/v3/user/keys', '/uiless/proxy/codeup/api/v3/user/keys'].flatMap((p) => [
        { method: 'GET', path: `${p}/${ids.key}` },
        { method: 'PUT', path: `${p}/${ids.key}`, body: { name: 'stolen' } },
        { method: 'DELETE', path: `${p}/${ids.key}` },
      ]),
      { method: 'PUT', path: '/individual/proxy/my/avatar', body: { avatar: ids.avatar } },
      { method: 'POST', path: `${inbox}/${ids.message}/read` },
      { method: 'DELETE', path: `${inbox}/${ids.message}` },
      { method: 'GET', path: `/users/ajax/v1/my/history?limit=1&cursor=${encodeURIComponent(ids.historyCursor)}` },
      { method: 'DELETE', path: `/users/ajax/v1/my/sessions/${ids.session}` },
      { method: 'DELETE', path: `/users/ajax/v1/my/trusted-browsers/${ids.browser}` },
      { method: 'PATCH', path: SECURITY_PATHS.passkey.replace(':id', ids.passkey), body: { name: 'stolen' } },
      { method: 'DELETE', path: SECURITY_PATHS.passkey.replace(':id', ids.passkey) },
      // Body-addressed: answered 200 with nothing changed (count 0), checked below and by the snapshot.
      { method: 'POST', path: `${inbox}/read`, body: { ids: [ids.message, list.json.messages[1].id] } },
      { method: 'POST', path: `${inbox}:batchDelete`, body: { ids: [ids.message, list.json.messages[1].id] } },
      {
        method: 'POST',
        path: '/individual/proxy/my/organizations',
        body: { user_id: ids.alice, pagination: { current_page: 1, page_size: 50 } },
      },
    ];
  });

  it('covers every id-addressed route of the OpenAPI document', async () => {
    const doc = (await s.clients.alice.req('GET', '/api/docs/json')).json as { paths: Record<string, object> };
    // A username names whose sign-in state is asked (the same answer for every name); a provider names a sign-in
    // method (`/login/oauth/{provider}`): neither addresses anything a user owns.
    const idRoutes = Object.keys(doc.paths).filter((p) => /\{(?!username\}|provider\})[^}]+\}/.test(p));
    const covered = new Set([
      ...cases.map((c) =>
        c.path
          .replace(ids.token, '{id}')
          .replace(ids.legacyToken, '{id}')
          .replace(ids.key, '{id}')
          .replace(ids.message, '{id}')
          .replace(ids.session, '{id}')
          .replace(ids.browser, '{id}')
          .replace(ids.passkey, '{id}'),
      ),
      // Organisation-addressed routes: the foreign-organisation rows below.
      '/uiless/api/organizations/{id}',
      '/uiless/api/organizations/{id}/apps/{appId}',
      '/uiless/api/organizations/{id}/apps/{appId}/permissions',
      '/uiless/api/organizations/{id}/appAdmins',
      '/api/organizations/{orgId}/members/list',
      '/uiless/apps/{id}',
      // Public by design, not owned by anyone: help links of the edition, and avatar images (random names).
      '/uiless/api/helpLink/{id}',
      '/objects/avatars/{name}',
    ]);
    expect(idRoutes.filter((p) => !covered.has(p))).toEqual([]);
  });

  it("refuses alice's ids to a member of her organisation and to another organisation's user, changing nothing", async () => {
    const before = await snapshot();
    const results: string[] = [];
    let tried = 0;
    for (const who of ['bob', 'carol'] as const) {
      const client: Client = s.clients[who];
      for (const c of cases) {
        const a = await client.req(c.method, c.path, { body: c.body, headers: c.headers });
        tried++;
        const nothingDone =
          (c.path.endsWith('tokens:batch') && a.json?.access_tokens?.length === 0) ||
          (c.path.includes('/notifications/inbox/') && a.json?.count === 0);
        if (a.status < 400 && !nothingDone) {
          if (!(c.path === '/individual/proxy/my/organizations' && !JSON.stringify(a.json).includes(ids.alice))) {
            results.push(`${who} ${c.method} ${c.path} → ${a.status} ${a.text.slice(0, 120)}`);
          }
        }
      }
    }
    const appId = s.ctx.db
      .selectFrom('org_apps')
      .select('app_id')
      .where('org_id', '=', ids.acme)
      .where('app_key', '=', 'codeup');
    const acmeApp = (await appId.executeTakeFirstOrThrow()).app_id;
    const orgCases: Case[] = [
      { method: 'GET', path: `/uiless/api/organizations/${ids.acme}` },
      { method: 'GET', path: `/uiless/api/organizations/${ids.acme}/apps/${acmeApp}` },
      { method: 'GET', path: `/uiless/api/organizations/${ids.acme}/apps/${acmeApp}/permissions` },
      { method: 'GET', path: `/uiless/api/organizations/${ids.acme}/appAdmins` },
      { method: 'GET', path: `/api/organizations/${ids.acme}/members/list?userIds=${ids.alice}` },
      { method: 'GET', path: `/uiless/apps/${acmeApp}`, headers: { 'x-tenant-id': ids.acme } },
      { method: 'PUT', path: '/uiless/api/sdk/users/lastWorkspace', body: { organization_id: ids.acme } },
      { method: 'POST', path: '/uiless/api/apps:search', body: {}, headers: { 'x-tenant-id': ids.acme } },
    ];
    for (const c of orgCases) {
      const a = await s.clients.carol.req(c.method, c.path, { body: c.body, headers: c.headers });
      tried++;
      if (a.status < 400) results.push(`carol ${c.method} ${c.path} → ${a.status} ${a.text.slice(0, 120)}`);
    }
    console.log(`IDOR: ${tried} cross-user and cross-organisation requests, ${results.length} successes`);
    expect(results).toEqual([]);
    expect(await snapshot()).toEqual(before);
    expectNoSecrets(s.logs, [PASSWORD, ...Object.values(s.clients).flatMap((c) => [c.cookieHeader(), c.csrf ?? ''])]);
  });
});
