import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, seedOrg, seedUser, startTestServer, type TestServer } from '../fixtures/server/harness';
import { useKeyByFingerprint } from '../../plugins/ssh-keys/server/service';

// Real keys made by ssh-keygen at test time; fingerprints compared with `ssh-keygen -lf`.
const DAY = 24 * 60 * 60 * 1000;
const CHINA = '/uiless/proxy/codeup/api/v3/user/keys';
const GLOBAL = '/codeup/api/v3/user/keys';

let dir: string;
const keys: Record<string, { pub: string; priv: string; fingerprint: string }> = {};

function generate(name: string, ...args: string[]) {
  const file = path.join(dir, name);
  execFileSync('ssh-keygen', ['-q', '-N', '', '-C', `${name}@test`, '-f', file, ...args]);
  const fingerprint = execFileSync('ssh-keygen', ['-lf', `${file}.pub`], { encoding: 'utf8' }).split(' ')[1];
  keys[name] = { pub: fs.readFileSync(`${file}.pub`, 'utf8'), priv: fs.readFileSync(file, 'utf8'), fingerprint };
}

describe('SSH public keys', () => {
  let s: TestServer;
  let alice: Client;
  let bob: Client;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ssh-keys-'));
    generate('ed25519', '-t', 'ed25519');
    generate('ed25519b', '-t', 'ed25519');
    generate('rsa2048', '-t', 'rsa', '-b', '2048');
    generate('rsa4096', '-t', 'rsa', '-b', '4096');
    generate('rsa1024', '-t', 'rsa', '-b', '1024');
    generate('ecdsa', '-t', 'ecdsa', '-b', '256');
    generate('dsa', '-t', 'dsa');
    s = await startTestServer();
    await seedOrg(s.ctx, 'Acme');
    await seedUser(s.ctx, { username: 'alice', password: 'Secret#123', org: 'Acme' });
    await seedUser(s.ctx, { username: 'bob', password: 'Secret#123', org: 'Acme' });
    alice = new Client(s.url);
    bob = new Client(s.url);
    expect((await alice.login('alice', 'Secret#123')).status).toBe(200);
    expect((await bob.login('bob', 'Secret#123')).status).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await s.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const add = (c: Client, body: Record<string, unknown>, base = CHINA) => c.req('POST', base, { body });

  it('starts empty and needs a session', async () => {
    expect((await alice.req('GET', CHINA)).json).toEqual([]);
    expect((await new Client(s.url).req('GET', CHINA)).status).toBe(401);
    expect((await new Client(s.url).req('GET', GLOBAL)).status).toBe(401);
  });

  it('accepts ed25519 and RSA 2048/4096 with fingerprints equal to ssh-keygen -lf', async () => {
    for (const name of ['ed25519', 'rsa2048', 'rsa4096']) {
      const a = await add(alice, { name: `laptop ${name}`, key: keys[name].pub, scope: 'read_only' });
      expect(a.status, a.text).toBe(201);
      expect(a.json).toMatchObject({
        name: `laptop ${name}`,
        fingerprint: keys[name].fingerprint,
        scope: 'read_only',
        expires_at: null,
        last_used_at: null,
        expired: false,
        key: keys[name].pub.trim(),
      });
      expect(a.json.fingerprint).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    }
    const list = await alice.req('GET', CHINA);
    expect(list.json.map((k: { fingerprint: string }) => k.fingerprint).sort()).toEqual(
      [keys.ed25519.fingerprint, keys.rsa2048.fingerprint, keys.rsa4096.fingerprint].sort(),
    );
    // The global edition's path is the same service.
    expect((await alice.req('GET', GLOBAL)).json).toEqual(list.json);
  });

  it('refuses RSA 1024, ECDSA, DSA, sk keys, private keys, mismatched types, multi-line and over-long pastes', async () => {
    const ed = keys.ed25519b.pub.trim().split(' ');
    const rsa = keys.rsa2048.pub.trim().split(' ');
    const cases: Array<[string, string]> = [
      [keys.rsa1024.pub, 'SshKeyRsaTooShort'],
      [keys.ecdsa.pub, 'SshKeyUnsupported'],
      [keys.dsa.pub, 'SshKeyUnsupported'],
      [`sk-ssh-ed25519@openssh.com ${ed[1]} x`, 'SshKeyUnsupported'],
      [keys.ed25519b.priv, 'SshKeyPrivate'],
      [keys.rsa2048.priv, 'SshKeyPrivate'],
      [`ssh-ed25519 ${rsa[1]}`, 'SshKeyTypeMismatch'],
      [`ssh-rsa ${ed[1]}`, 'SshKeyTypeMismatch'],
      [`ssh-ed25519 ${ed[1].slice(0, 40)}\n${ed[1].slice(40)}`, 'SshKeyMultiLine'],
      [`${keys.ed25519b.pub.trim()}\n${keys.rsa4096.pub.trim()}`, 'SshKeyMultiLine'],
      [`ssh-ed25519 ${ed[1]} ${'x'.repeat(5000)}`, 'SshKeyTooLong'],
      ['ssh-ed25519 not-base64!', 'SshKeyInvalid'],
      ['ssh-ed25519 AAAA', 'SshKeyInvalid'],
      ['hello', 'SshKeyInvalid'],
    ];
    for (const [key, code] of cases) {
      const a = await add(alice, { name: 'bad', key });
      expect(a.status, `${code}: ${a.text}`).toBe(400);
      expect(a.json.code).toBe(code);
    }
    const message = await alice.req('POST', CHINA, {
      body: { name: 'bad', key: keys.ecdsa.pub },
      headers: { cookie: `${alice.cookieHeader()}; ak_user_locale=en_US` },
    });
    expect(message.json.message).toBe(
      'Only SSH public keys generated by RSA or ed25519 are supported, please modify and retry.',
    );
    // Name and key are required; an unknown scope is refused.
    expect((await add(alice, { name: '', key: keys.ed25519b.pub })).status).toBe(400);
    expect((await add(alice, { name: '   ', key: keys.ed25519b.pub })).status).toBe(400);
    expect((await add(alice, { name: 'x' })).status).toBe(400);
    expect((await add(alice, { name: 'x', key: keys.ed25519b.pub, scope: 'admin' })).status).toBe(400);
    // Nothing of the above was stored.
    expect((await alice.req('GET', CHINA)).json).toHaveLength(3);
  });

  it('refuses the same key twice, by the same or another user (409)', async () => {
    const again = await add(alice, { name: 'again', key: keys.ed25519.pub });
    expect(again.status).toBe(409);
    expect(again.json.code).toBe('SshKeyDuplicate');
    // Same key material with another comment is still the same key.
    const [t, b] = keys.rsa2048.pub.trim().split(' ');
    expect((await add(bob, { name: 'stolen', key: `${t} ${b} bob@elsewhere` }, GLOBAL)).status).toBe(409);
    expect((await bob.req('GET', CHINA)).json).toEqual([]);
  });

  it('takes an optional expiry, shows expired keys as such and refuses them for use', async () => {
    const now = s.clock.now().getTime();
    expect(
      (await add(bob, { name: 'old', key: keys.ed25519b.pub, expires_at: new Date(now - DAY).toISOString() })).json
        .code,
    ).toBe('SshKeyExpiryPast');
    const a = await add(bob, { name: 'ci', key: keys.ed25519b.pub, expires_at: new Date(now + DAY).toISOString() });
    expect(a.status).toBe(201);
    expect(a.json.scope).toBe('read_write');
    expect(await useKeyByFingerprint(s.ctx, keys.ed25519b.fingerprint)).toEqual({
      userId: expect.any(String),
      scope: 'read_write',
    });
    expect((await bob.req('GET', `${CHINA}/${a.json.id}`)).json.last_used_at).toBe(new Date(now).toISOString());
    s.clock.advance(DAY);
    // A day later the sessions have ended too; sign in again.
    await alice.login('alice', 'Secret#123');
    await bob.login('bob', 'Secret#123');
    const listed = (await bob.req('GET', CHINA)).json;
    expect(listed[0]).toMatchObject({ id: a.json.id, expired: true });
    expect(await useKeyByFingerprint(s.ctx, keys.ed25519b.fingerprint)).toBeNull();
    // Renewing the expiry makes it usable again.
    const renewed = await bob.req('PUT', `${CHINA}/${a.json.id}`, { body: { expires_at: null } });
    expect(renewed.json).toMatchObject({ expires_at: null, expired: false });
  });

  it('edits name and scope, reads and deletes its own keys on both paths', async () => {
    const [first] = (await alice.req('GET', CHINA)).json;
    const edited = await alice.req('PUT', `${GLOBAL}/${first.id}`, { body: { name: 'renamed', scope: 'read_write' } });
    expect(edited.status).toBe(200);
    expect(edited.json).toMatchObject({
      id: first.id,
      name: 'renamed',
      scope: 'read_write',
      fingerprint: first.fingerprint,
    });
    expect((await alice.req('GET', `${CHINA}/${first.id}`)).json.name).toBe('renamed');
    expect((await alice.req('PUT', `${CHINA}/${first.id}`, { body: { key: 'ssh-rsa AAAA' } })).status).toBe(400);
    expect((await alice.req('DELETE', `${CHINA}/${first.id}`)).json).toEqual({ success: true });
    expect((await alice.req('GET', `${CHINA}/${first.id}`)).status).toBe(404);
    expect((await alice.req('DELETE', `${GLOBAL}/${first.id}`)).status).toBe(404);
    // Once deleted, the key may be added again.
    expect((await add(alice, { name: 'back', key: first.key })).status).toBe(201);
  });

  it('answers 404 for another user’s key on every id-addressed call, and changes nothing', async () => {
    const [target] = (await alice.req('GET', CHINA)).json;
    const before = await s.ctx.db.selectFrom('ssh_keys').selectAll().where('id', '=', target.id).executeTakeFirst();
    for (const base of [CHINA, GLOBAL]) {
      const get = await bob.req('GET', `${base}/${target.id}`);
      const put = await bob.req('PUT', `${base}/${target.id}`, { body: { name: 'mine now', scope: 'read_only' } });
      const del = await bob.req('DELETE', `${base}/${target.id}`);
      for (const a of [get, put, del]) {
        expect(a.status).toBe(404);
        expect(a.json.code).toBe('SshKeyNotFound');
      }
    }
    // Same answer as for an id that does not exist.
    expect((await bob.req('GET', `${CHINA}/000000000000000000000000`)).json.code).toBe('SshKeyNotFound');
    const after = await s.ctx.db.selectFrom('ssh_keys').selectAll().where('id', '=', target.id).executeTakeFirst();
    expect(after).toEqual(before);
  });

  it('applies CSRF and X-Requested-With to state changes on both paths', async () => {
    for (const base of [CHINA, GLOBAL]) {
      expect((await alice.req('POST', base, { body: { name: 'x', key: keys.rsa1024.pub }, csrf: false })).status).toBe(
        403,
      );
      expect((await alice.req('POST', base, { body: { name: 'x', key: keys.rsa1024.pub }, xhr: false })).status).toBe(
        403,
      );
    }
  });
});
