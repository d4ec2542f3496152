import { beforeAll, describe, expect, it } from 'vitest';
import { Client, useTestServer } from '../kit/server';
import { PACKAGES_PASSWORD_DELAY_MS, verifyPackagesPassword } from '../../plugins/packages-credential/server/service';

const INFO = '/uiless/proxy/package/api/external/users/userInfo';
const RESET = '/uiless/proxy/package/api/external/users/user/password';

describe('artifact-repository credential', () => {
  const s = useTestServer({
    seed: {
      orgs: { Acme: ['codeup', 'packages'], CodeOnly: ['codeup'] },
      users: { alice: { password: 'Secret#123', org: 'Acme' }, carol: { password: 'Secret#123', org: 'CodeOnly' } },
      signIn: ['alice', 'carol'],
    },
  });
  let alice: Client;
  let carol: Client;
  let codeOnlyOrg: string;

  beforeAll(() => {
    ({ alice, carol } = s.clients);
    codeOnlyOrg = s.orgs.CodeOnly;
  });

  it('shows the username and never a password', async () => {
    const a = await alice.req('GET', INFO);
    expect(a.status).toBe(200);
    expect(a.json).toEqual({ username: 'alice', has_password: false, effective_at: null, last_use: null });
    expect((await new Client(s.url).req('GET', INFO)).status).toBe(401);
  });

  it('is refused where the packages app is not installed', async () => {
    for (const a of [await carol.req('GET', INFO), await carol.req('POST', RESET)]) {
      expect(a.status).toBe(403);
      expect(a.json.code).toBe('PackagesNotInstalled');
    }
    // Naming an organisation the user is not in does not help either.
    expect((await alice.req('GET', INFO, { headers: { 'x-tenant-id': codeOnlyOrg } })).status).toBe(403);
  });

  it('resets to a new password shown once, accepted only 10 s later (moved clock)', async () => {
    const t0 = s.clock.now().getTime();
    const first = await alice.req('POST', RESET);
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ username: 'alice', has_password: true });
    expect(first.json.effective_at).toBe(new Date(t0 + PACKAGES_PASSWORD_DELAY_MS).toISOString());
    const p1: string = first.json.password;
    expect(p1.length).toBeGreaterThanOrEqual(16);

    // Never readable afterwards, and only a digest is stored.
    const info = await alice.req('GET', INFO);
    expect(info.json).toEqual({
      username: 'alice',
      has_password: true,
      effective_at: first.json.effective_at,
      last_use: null,
    });
    expect(info.text).not.toContain(p1);
    const row = await s.ctx.db.selectFrom('packages_credentials').selectAll().executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(p1);

    expect(await verifyPackagesPassword(s.ctx, 'alice', p1)).toBe(false);
    s.clock.advance(PACKAGES_PASSWORD_DELAY_MS - 1);
    expect(await verifyPackagesPassword(s.ctx, 'alice', p1)).toBe(false);
    s.clock.advance(1);
    expect(await verifyPackagesPassword(s.ctx, 'alice', p1)).toBe(true);
    expect(await verifyPackagesPassword(s.ctx, 'alice', 'wrong')).toBe(false);
    expect(await verifyPackagesPassword(s.ctx, 'nobody', p1)).toBe(false);

    // A second reset: the old password keeps working for 10 s, then only the new one.
    const second = await alice.req('POST', RESET);
    const p2: string = second.json.password;
    expect(p2).not.toBe(p1);
    expect(await verifyPackagesPassword(s.ctx, 'alice', p1)).toBe(true);
    expect(await verifyPackagesPassword(s.ctx, 'alice', p2)).toBe(false);
    s.clock.advance(PACKAGES_PASSWORD_DELAY_MS);
    expect(await verifyPackagesPassword(s.ctx, 'alice', p1)).toBe(false);
    expect(await verifyPackagesPassword(s.ctx, 'alice', p2)).toBe(true);

    // Two resets within 10 s: the one in force stays p2 until the newest takes effect.
    const p3: string = (await alice.req('POST', RESET)).json.password;
    s.clock.advance(5_000);
    const p4: string = (await alice.req('POST', RESET)).json.password;
    expect(await verifyPackagesPassword(s.ctx, 'alice', p2)).toBe(true);
    expect(await verifyPackagesPassword(s.ctx, 'alice', p3)).toBe(false);
    s.clock.advance(PACKAGES_PASSWORD_DELAY_MS);
    expect(await verifyPackagesPassword(s.ctx, 'alice', p4)).toBe(true);
    expect(await verifyPackagesPassword(s.ctx, 'alice', p2)).toBe(false);
  });

  it('needs CSRF and X-Requested-With to reset', async () => {
    expect((await alice.req('POST', RESET, { csrf: false })).status).toBe(403);
    expect((await alice.req('POST', RESET, { xhr: false })).status).toBe(403);
    expect((await alice.req('POST', RESET, { body: { password: 'chosen' } })).status).toBe(400);
  });
});
