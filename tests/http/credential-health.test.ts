// Credential health (issue 42 item 4) and refused uses in the history (item 3): the security page lists every token,
// SSH key, the artifact password and the sessions with their marks (the clock moves: never used, unused 30/90 days,
// expiring, expired); "revoke all stale" needs a fresh proof, takes exactly what is stale now (never this session,
// nobody else's), and the history says what went; a refused use of a credential shows in the history in words.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, useTestServer } from '../kit/server';
import { REAUTH_PATHS, REAUTH_REQUIRED } from '../../schemas/reauth';
import { DEFAULT_REAUTH_WINDOW_MINUTES } from '../../server/config';
import { verifyPackagesPassword } from '../../plugins/packages-credential/server/service';
import type { CredentialHealth, CredentialHealthItem } from '../../plugins/security/contract';

const HEALTH = '/users/ajax/v1/my/credential-health';
const REVOKE_STALE = '/users/ajax/v1/my/credential-health:revoke-stale';
const TOKENS = '/users/ajax/v1/my/tokens';
const KEYS = '/uiless/proxy/codeup/api/v3/user/keys';
const PACKAGES_RESET = '/uiless/proxy/package/api/external/users/user/password';
const HISTORY = '/users/ajax/v1/my/history';
const PASSWORD = 'Secret#123';
const DAY = 24 * 3600 * 1000;
const MINUTE = 60_000;

describe('credential health', () => {
  const s = useTestServer({
    seed: {
      orgs: { Acme: ['codeup', 'packages'] },
      users: { alice: { password: PASSWORD, org: 'Acme' }, bob: { password: PASSWORD, org: 'Acme' } },
      signIn: ['alice', 'bob'],
    },
  });
  let keyDir: string;
  const publicKey = (name: string) => fs.readFileSync(path.join(keyDir, `${name}.pub`), 'utf8');
  beforeAll(() => {
    keyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'health-keys-'));
    for (const k of ['a', 'b'])
      execFileSync('ssh-keygen', ['-q', '-N', '', '-t', 'ed25519', '-C', `${k}@test`, '-f', path.join(keyDir, k)]);
  });
  afterAll(() => fs.rmSync(keyDir, { recursive: true, force: true }));

  const userId = (u: string) => s.users[u].id;
  /** A fresh session (the clock moves past the 12-hour session between looks). */
  const signedIn = async (u: string) => (await s.signIn(u))[u];

  async function createToken(c: Client, name: string, days: number): Promise<{ id: string; token: string }> {
    const a = await c.req('POST', TOKENS, {
      body: {
        name,
        description: 'for tests',
        expires_at: new Date(s.clock.now().getTime() + days * DAY).toISOString(),
        token_scopes: ['base:user:read'],
      },
    });
    expect(a.status, a.text).toBe(200);
    return { id: a.json.token_id, token: a.json.token };
  }
  /** Uses a token on the open API (recorded as a use, ok or refused). */
  const useToken = (token: string) =>
    new Client(s.url).req('GET', '/oapi/v1/platform/user', { headers: { 'x-yunxiao-token': token }, xhr: false });
  /** A use through git or a download, as the gate or the download check records it. */
  const record = (kind: 'ssh-key' | 'packages-password', credentialId: string, user: string, ok = true) =>
    s.ctx.credentialUses.record({
      kind,
      credentialId,
      userId: userId(user),
      address: '192.0.2.7',
      client: kind === 'ssh-key' ? 'git/2.39 (ssh)' : 'npm/10',
      action: kind === 'ssh-key' ? 'git-upload-pack acme/app' : 'download /npm/a.tgz',
      outcome: ok ? 'ok' : 'refused',
      ...(ok ? {} : { reason: 'read-only' as const, name: 'laptop' }),
    });

  async function health(c: Client): Promise<CredentialHealth> {
    const a = await c.req('GET', HEALTH);
    expect(a.status, a.text).toBe(200);
    return a.json;
  }
  const byName = (h: CredentialHealth) => new Map(h.credentials.map((c) => [`${c.kind}:${c.name}`, c]));
  const marksOf = (h: CredentialHealth) =>
    Object.fromEntries(
      h.credentials.filter((c) => c.kind !== 'session').map((c) => [`${c.kind}:${c.name}`, [c.marks, c.stale]]),
    );

  let used: { id: string; token: string };
  let never: { id: string; token: string };
  let expiring: { id: string; token: string };
  let keyId: string;
  let bobToken: { id: string; token: string };
  let packagesPassword: string;

  it('marks each kind as the clock moves: never used, unused 30 and 90 days, expiring within 7 days, expired', async () => {
    const { alice, bob } = s.clients;
    used = await createToken(alice, 'used', 200);
    never = await createToken(alice, 'never', 200);
    expiring = await createToken(alice, 'expiring', 35);
    bobToken = await createToken(bob, 'bob-ci', 200);
    const key = await alice.req('POST', KEYS, { body: { name: 'laptop', key: publicKey('a'), scope: 'read_only' } });
    expect(key.status, key.text).toBe(201);
    keyId = String(key.json.id);
    const reset = await alice.req('POST', PACKAGES_RESET);
    expect(reset.status, reset.text).toBe(200);
    packagesPassword = reset.json.password;

    const start = await health(alice);
    expect(marksOf(start)).toEqual({
      'token:used': [['never-used'], false],
      'token:never': [['never-used'], false],
      'token:expiring': [['never-used'], false],
      'ssh-key:laptop': [['never-used'], false],
      'packages-password:alice': [['never-used'], false],
    });
    // The sessions are listed too, this one named as the caller's and never stale.
    const sessions = start.credentials.filter((c) => c.kind === 'session');
    expect(sessions).toHaveLength(1);
    expect(start.current_session).toBe(sessions[0].id);
    expect(sessions[0]).toMatchObject({ marks: [], stale: false, lastUse: { address: '127.0.0.1' } });
    // Nobody else's credentials.
    expect(start.credentials.some((c) => c.id === bobToken.id)).toBe(false);

    s.clock.advance(MINUTE);
    expect((await useToken(used.token)).status).toBe(200);
    await record('ssh-key', keyId, 'alice');
    s.clock.advance(10_000);
    await record('packages-password', userId('alice'), 'alice');

    s.clock.advance(29 * DAY);
    expect((await useToken(used.token)).status).toBe(200);
    expect((await useToken(expiring.token)).status).toBe(200);
    s.clock.advance(2 * DAY);
    let alice2 = await signedIn('alice');
    const at31 = await health(alice2);
    expect(marksOf(at31)).toEqual({
      'token:used': [[], false],
      'token:never': [['never-used', 'unused-30'], true],
      'token:expiring': [['expiring'], false],
      'ssh-key:laptop': [['unused-30'], true],
      'packages-password:alice': [['unused-30'], true],
    });
    // The last use says when and from where.
    expect(byName(at31).get('ssh-key:laptop')?.lastUse).toEqual({
      at: expect.any(String),
      address: '192.0.2.7',
      client: 'git/2.39 (ssh)',
    });
    expect(byName(at31).get('token:used')?.lastUse).toMatchObject({ address: '127.0.0.1' });

    s.clock.advance(5 * DAY);
    alice2 = await signedIn('alice');
    expect(marksOf(await health(alice2))['token:expiring']).toEqual([['expired'], true]);

    s.clock.advance(55 * DAY);
    alice2 = await signedIn('alice');
    const at91 = marksOf(await health(alice2));
    expect(at91['token:never']).toEqual([['never-used', 'unused-90'], true]);
    expect(at91['ssh-key:laptop']).toEqual([['unused-90'], true]);
    expect(at91['token:used']).toEqual([['unused-30'], true]);
  });

  it('revoke all stale needs a fresh proof, then takes exactly the stale ones: not this session, not bob’s', async () => {
    const alice = await signedIn('alice');
    const [other] = Object.values(await s.signIn('alice'));
    // Bob's token is as stale as alice's; alice's revocation must not reach it.
    await signedIn('bob');

    s.clock.advance(DEFAULT_REAUTH_WINDOW_MINUTES * MINUTE + 1000);
    const refused = await alice.req('POST', REVOKE_STALE, { body: {} });
    expect([refused.status, refused.json.code]).toEqual([403, REAUTH_REQUIRED]);
    expect(marksOf(await health(alice))['token:never']).toEqual([['never-used', 'unused-90'], true]);

    const proof = await alice.req('POST', REAUTH_PATHS.my, { body: { password: PASSWORD } });
    expect(proof.status, proof.text).toBe(200);
    alice.csrf = proof.json.csrf_token;

    // The page showed these stale ones; meanwhile "never" is used: it is no longer stale and stays.
    const before = await health(alice);
    const seen = before.credentials.filter((c) => c.stale);
    expect(seen.map((c) => `${c.kind}:${c.name}`).sort()).toEqual([
      'packages-password:alice',
      'ssh-key:laptop',
      'token:expiring',
      'token:never',
      'token:used',
    ]);
    expect((await useToken(never.token)).status).toBe(200);

    const a = await alice.req('POST', REVOKE_STALE, { body: { items: seen.map(({ kind, id }) => ({ kind, id })) } });
    expect(a.status, a.text).toBe(200);
    expect(a.json.kept).toBe(1);
    expect((a.json.revoked as CredentialHealthItem[]).map((r) => `${r.kind}:${r.name}`).sort()).toEqual([
      'packages-password:alice',
      'ssh-key:laptop',
      'token:expiring',
      'token:used',
    ]);

    const after = await health(alice);
    expect(after.credentials.filter((c) => c.kind !== 'session').map((c) => `${c.kind}:${c.name}`)).toEqual([
      'token:never',
    ]);
    const sessionIds = (h: CredentialHealth) => h.credentials.filter((c) => c.kind === 'session').map((c) => c.id);
    expect(sessionIds(after)).toEqual(sessionIds(before));
    expect(sessionIds(after)).toContain(after.current_session);
    expect((await useToken(used.token)).status).toBe(401);
    expect((await useToken(never.token)).status).toBe(200);
    expect(await verifyPackagesPassword(s.ctx, 'alice', packagesPassword)).toBe(false);
    expect((await alice.req('GET', KEYS)).json).toEqual([]);
    // This session and the other one go on; bob's stale token still works.
    expect((await alice.req('GET', '/individual/proxy/me')).status).toBe(200);
    expect((await other.req('GET', '/individual/proxy/me')).status).toBe(200);
    expect((await useToken(bobToken.token)).status).toBe(200);

    // The history says what went, by kind.
    const history = await alice.req('GET', `${HISTORY}?group=credential&limit=5`);
    expect(history.json.entries[0]).toMatchObject({
      kind: 'credentials.stale-revoked',
      detail: {
        revoked: expect.arrayContaining([
          { credential: 'token', count: 2 },
          { credential: 'ssh-key', count: 1 },
          { credential: 'packages-password', count: 1 },
        ]),
      },
    });

    // Nothing stale is left: a second call revokes nothing and writes no entry.
    const again = await alice.req('POST', REVOKE_STALE, { body: {} });
    expect(again.json).toEqual({ revoked: [], kept: 0 });
  });

  it('validates its body and needs a session and the CSRF token', async () => {
    const alice = await signedIn('alice');
    expect((await alice.req('POST', REVOKE_STALE, { body: { items: [{ kind: 'cookie', id: 'x' }] } })).status).toBe(
      400,
    );
    expect((await alice.req('POST', REVOKE_STALE, { body: { items: [], extra: 1 } })).status).toBe(400);
    expect((await alice.req('POST', REVOKE_STALE, { body: {}, csrf: false })).status).toBe(403);
    expect((await new Client(s.url).req('POST', REVOKE_STALE, { body: {} })).status).toBe(401);
    expect((await new Client(s.url).req('GET', HEALTH)).status).toBe(401);
    // Another account's stale token named in the body is nobody's here: nothing goes.
    const proof = await alice.req('POST', REAUTH_PATHS.my, { body: { password: PASSWORD } });
    alice.csrf = proof.json.csrf_token;
    const a = await alice.req('POST', REVOKE_STALE, { body: { items: [{ kind: 'token', id: bobToken.id }] } });
    expect([a.status, a.json]).toEqual([200, { revoked: [], kept: 1 }]);
    expect((await useToken(bobToken.token)).status).toBe(200);
  });

  it('the history shows refused uses in words: the credential, its name, what was tried and why', async () => {
    const bob = await signedIn('bob');
    const key = await bob.req('POST', KEYS, { body: { name: 'laptop', key: publicKey('b'), scope: 'read_only' } });
    expect(key.status, key.text).toBe(201);
    await s.ctx.credentialUses.record({
      kind: 'ssh-key',
      credentialId: String(key.json.id),
      userId: userId('bob'),
      address: '198.51.100.4',
      client: 'git/2.39 (ssh)',
      action: 'git-receive-pack acme/app',
      outcome: 'refused',
      reason: 'read-only',
      name: 'laptop',
    });
    const expired = await createToken(bob, 'short', 1);
    s.clock.advance(2 * DAY);
    expect((await useToken(expired.token)).status).toBe(401);

    const reader = await signedIn('bob');
    const history = await reader.req('GET', `${HISTORY}?group=credential&limit=10`);
    const refused = (history.json.entries as { kind: string; detail: object; address: string }[]).filter(
      (e) => e.kind === 'credential.refused',
    );
    expect(refused).toEqual([
      expect.objectContaining({
        detail: { credential: 'token', name: 'short', action: expect.stringContaining('GET'), refusal: 'expired' },
      }),
      expect.objectContaining({
        address: '198.51.100.4',
        detail: { credential: 'ssh-key', name: 'laptop', action: 'git-receive-pack acme/app', refusal: 'read-only' },
      }),
    ]);
    const csv = await reader.req('GET', `${HISTORY}.csv?group=credential`, { headers: { 'accept-language': 'en-US' } });
    expect(csv.text).toContain('Credential use refused');
    expect(csv.text).toContain('SSH key; Action: git-receive-pack acme/app; Reason: the SSH key is read-only');
    const zh = await reader.req('GET', `${HISTORY}.csv?group=credential`, { headers: { 'accept-language': 'zh-CN' } });
    expect(zh.text).toContain('原因：SSH 公钥为只读');
  });
});
