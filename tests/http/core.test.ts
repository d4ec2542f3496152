import { beforeAll, describe, expect, it } from 'vitest';
import { Client, useTestServer } from '../kit/server';

describe('shell endpoints: me, installed apps, organisation', () => {
  const s = useTestServer({
    seed: {
      orgs: { Acme: ['codeup', 'packages'], Other: ['lingma'] },
      users: { alice: { password: 'Secret#123', org: 'Acme', email: 'alice@example.com' } },
      signIn: ['alice'],
    },
  });
  let acme: string;
  let other: string;
  let c: Client;
  beforeAll(() => {
    ({ Acme: acme, Other: other } = s.orgs);
    c = s.clients.alice;
  });

  it('GET /individual/proxy/me returns the profile with its current organisation', async () => {
    const me = await c.req('GET', '/individual/proxy/me?with_email_info=true');
    expect(me.json).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      username: 'alice',
      name: 'alice',
      email: 'alice@example.com',
      email_verified: true,
      avatar: null,
      language: null,
      must_change_password: false,
      organization_id: acme,
      colorScheme: 'system',
    });
  });

  it('apps:search lists the apps installed in a member organisation', async () => {
    const a = await c.req('POST', '/uiless/api/apps:search', {
      body: {},
      headers: { 'x-tenant-id': acme, 'x-app-id': 'account' },
    });
    expect(a.status).toBe(200);
    expect(a.json.results).toEqual([
      { identity: 'codeup', id: expect.any(String), name: expect.any(String) },
      { identity: 'packages', id: expect.any(String), name: expect.any(String) },
    ]);
    const none = await c.req('POST', '/uiless/api/apps:search', { headers: { 'x-tenant-id': acme } });
    expect(none.status).toBe(200);
  });

  it('apps:search refuses an organisation the user is not a member of', async () => {
    const a = await c.req('POST', '/uiless/api/apps:search', { body: {}, headers: { 'x-tenant-id': other } });
    expect(a.status).toBe(403);
    expect(a.json.code).toBe('NoOrganizationPermission');
  });

  it('organisations are visible to members only; others look like missing ones', async () => {
    const mine = await c.req('GET', `/uiless/api/organizations/${acme}`);
    expect(mine.json).toEqual({ id: acme, name: 'Acme', logo: null });
    const theirs = await c.req('GET', `/uiless/api/organizations/${other}`);
    const missing = await c.req('GET', '/uiless/api/organizations/000000000000000000000000');
    expect(theirs.status).toBe(403);
    expect([theirs.json.code, theirs.json.message]).toEqual([missing.json.code, missing.json.message]);
  });
});
