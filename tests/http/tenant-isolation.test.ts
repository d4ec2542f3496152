import { beforeAll, describe, expect, it } from 'vitest';
import { Client, useTestServer, type Answer } from '../kit/server';
import { orgParamName, tenantRoutes } from '../../server/http/tenant';
import { removeMember } from '../../server/services/organizations';

// Tenant isolation: an x-tenant-id or organisation id the caller is not a member of never reads or changes
// anything, on every organisation-scoped route the service mounts (the core's and every slice's), and a user with
// no organisation at all is a state the service answers normally.

const SEARCH = '/uiless/api/apps:search';
const UNKNOWN_ORG = '0123456789abcdef01234567';

function expectNoPermission(a: Answer, what: string) {
  expect(a.status, `${what}: ${a.text}`).toBe(403);
  expect(a.json.code, what).toBe('NoOrganizationPermission');
  expect(Object.keys(a.json).sort(), what).toEqual(['code', 'message', 'requestId', 'status']);
}

describe('tenant isolation', () => {
  const s = useTestServer({
    seed: {
      orgs: {
        Acme: { apps: ['codeup', 'packages'], admins: ['alice'] },
        Globex: { apps: ['lingma'], members: ['dave'] },
      },
      users: {
        alice: { password: 'Secret#123', org: 'Acme' },
        bob: { password: 'Secret#123', org: 'Acme' },
        carol: { password: 'Secret#123', org: 'Globex' },
        dave: { password: 'Secret#123', org: 'Acme' },
        loner: { password: 'Secret#123' },
      },
      signIn: ['alice', 'bob', 'carol', 'dave', 'loner'],
    },
  });
  let acme: string;
  let globex: string;
  let alice: Client;
  beforeAll(() => {
    ({ Acme: acme, Globex: globex } = s.orgs);
    alice = s.clients.alice;
  });

  /** Every row a request could read or change for an organisation, to prove a refusal changed nothing. */
  const snapshot = async () => {
    const db = s.ctx.db;
    return {
      organizations: await db.selectFrom('organizations').selectAll().orderBy('id').execute(),
      memberships: await db.selectFrom('memberships').selectAll().orderBy('org_id').orderBy('user_id').execute(),
      users: await db.selectFrom('users').select(['id', 'current_org_id', 'updated_at']).orderBy('id').execute(),
      orgApps: await db.selectFrom('org_apps').selectAll().orderBy('org_id').orderBy('app_key').execute(),
      appAdmins: await db.selectFrom('app_admins').selectAll().orderBy('org_id').orderBy('user_id').execute(),
      appPermissions: await db.selectFrom('app_permissions').selectAll().orderBy('org_id').orderBy('user_id').execute(),
    };
  };

  it('a foreign or unknown x-tenant-id on apps:search is refused alike, with nothing of the organisation', async () => {
    const foreign = await alice.req('POST', SEARCH, { body: {}, headers: { 'x-tenant-id': globex } });
    const unknown = await alice.req('POST', SEARCH, { body: {}, headers: { 'x-tenant-id': UNKNOWN_ORG } });
    expectNoPermission(foreign, 'foreign');
    expectNoPermission(unknown, 'unknown');
    expect(foreign.json.message).toBe(unknown.json.message);
    expect(foreign.text).not.toContain('lingma');
    // The same caller in its own organisation, and the other organisation's member in theirs.
    const own = await alice.req('POST', SEARCH, { body: {}, headers: { 'x-tenant-id': acme } });
    expect(own.json.results.map((r: { identity: string }) => r.identity)).toEqual(['codeup', 'packages']);
    const theirs = await s.clients.carol.req('POST', SEARCH, { body: {}, headers: { 'x-tenant-id': globex } });
    expect(theirs.json.results.map((r: { identity: string }) => r.identity)).toEqual(['lingma']);
  });

  it('a foreign organisation id in the path is refused like an unknown one; a foreign x-tenant-id beside an own path too', async () => {
    expectNoPermission(await alice.req('GET', `/uiless/api/organizations/${globex}`), 'foreign path');
    expectNoPermission(await alice.req('GET', `/uiless/api/organizations/${UNKNOWN_ORG}`), 'unknown path');
    expectNoPermission(
      await alice.req('GET', `/uiless/api/organizations/${acme}`, { headers: { 'x-tenant-id': globex } }),
      'own path, foreign header',
    );
    const own = await alice.req('GET', `/uiless/api/organizations/${acme}`, { headers: { 'x-tenant-id': acme } });
    expect(own.json).toEqual({ id: acme, name: 'Acme', logo: null });
  });

  it('a member of two organisations sees each one’s apps only under its id', async () => {
    const dave = s.clients.dave;
    const inAcme = await dave.req('POST', SEARCH, { body: {}, headers: { 'x-tenant-id': acme } });
    const inGlobex = await dave.req('POST', SEARCH, { body: {}, headers: { 'x-tenant-id': globex } });
    expect(inAcme.json.results.map((r: { identity: string }) => r.identity)).toEqual(['codeup', 'packages']);
    expect(inGlobex.json.results.map((r: { identity: string }) => r.identity)).toEqual(['lingma']);
  });

  it('every organisation-scoped route the service mounts refuses a foreign organisation and changes nothing', async () => {
    const routes = tenantRoutes(s.app).filter((r) => r.tenantHeaderChecked && r.auth === 'session');
    const urls = routes.map((r) => `${r.method} ${r.url}`);
    // The sweep covers the core's routes and whatever the edition's slices add.
    expect(urls).toContain('POST /uiless/api/apps::search');
    expect(urls).toContain('GET /uiless/api/organizations/:id');
    const before = await snapshot();
    /** The request URL with `org` for the organisation param and a probe value for the others. */
    const fill = (url: string, org: string) => {
      const param = orgParamName(url);
      return url
        .split('::')
        .map((part) => part.replace(/:([A-Za-z_]\w*)/g, (_m, name: string) => (name === param ? org : 'probe')))
        .join(':')
        .replace(/\*$/, 'probe');
    };
    for (const r of routes) {
      const body = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method) ? {} : undefined;
      const hasOrgParam = !!orgParamName(r.url);
      // Foreign organisation named by x-tenant-id (the path, when it names one, is the caller's own).
      const byHeader = await alice.req(r.method, fill(r.url, acme), { body, headers: { 'x-tenant-id': globex } });
      expectNoPermission(byHeader, `${r.method} ${r.url} with a foreign x-tenant-id`);
      if (hasOrgParam) {
        const byPath = await alice.req(r.method, fill(r.url, globex), { body, headers: { 'x-tenant-id': acme } });
        expectNoPermission(byPath, `${r.method} ${r.url} with a foreign organisation in the path`);
        const unknown = await alice.req(r.method, fill(r.url, UNKNOWN_ORG), { body });
        expectNoPermission(unknown, `${r.method} ${r.url} with an unknown organisation in the path`);
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it('a user with no organisation: me has none, apps:search answers 200 with no apps, any organisation is refused', async () => {
    const loner = s.clients.loner;
    const me = await loner.req('GET', '/individual/proxy/me');
    expect(me.status).toBe(200);
    expect(me.json.organization_id).toBeNull();
    for (const headers of [{}, { 'x-tenant-id': '' }] as Array<Record<string, string>>) {
      const a = await loner.req('POST', SEARCH, { body: {}, headers });
      expect(a.status, a.text).toBe(200);
      expect(a.json).toEqual({ results: [] });
    }
    const noBody = await loner.req('POST', SEARCH);
    expect([noBody.status, noBody.json]).toEqual([200, { results: [] }]);
    expectNoPermission(await loner.req('POST', SEARCH, { body: {}, headers: { 'x-tenant-id': acme } }), 'header');
    expectNoPermission(await loner.req('GET', `/uiless/api/organizations/${acme}`), 'path');
  });

  it('a member removed from an organisation loses it at once, with the same session', async () => {
    const bob = s.clients.bob;
    expect((await bob.req('POST', SEARCH, { body: {}, headers: { 'x-tenant-id': acme } })).status).toBe(200);
    await removeMember(s.ctx, 'Acme', 'bob');
    expectNoPermission(await bob.req('POST', SEARCH, { body: {}, headers: { 'x-tenant-id': acme } }), 'removed');
    expectNoPermission(await bob.req('GET', `/uiless/api/organizations/${acme}`), 'removed, path');
    // Acme was his current organisation: he now has none, which is a state, not an error.
    expect((await bob.req('GET', '/individual/proxy/me')).json.organization_id).toBeNull();
    expect((await bob.req('POST', SEARCH, { body: {} })).json).toEqual({ results: [] });
  });
});

describe('many organisations (bulk seed)', () => {
  const s = useTestServer({
    seed: {
      orgs: { Home: ['codeup'] },
      users: { many: { password: 'Secret#123' }, other: { password: 'Secret#123', org: 'Home' } },
      manyOrgs: [{ prefix: 'Bulk', count: 10_000, members: ['many'], apps: ['codeup'] }],
      signIn: ['many', 'other'],
    },
  });

  it('seeds 10,000 memberships in batches; each organisation admits its members only', async () => {
    const ids = Object.entries(s.orgs).filter(([name]) => name.startsWith('Bulk '));
    expect(ids).toHaveLength(10_000);
    expect(ids[0][0]).toBe('Bulk 00001');
    const count = await s.ctx.db
      .selectFrom('memberships')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', s.users.many.id)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(10_000);
    // The first bulk organisation became the current one of a user who had none.
    expect((await s.clients.many.req('GET', '/individual/proxy/me')).json.organization_id).toBe(s.orgs['Bulk 00001']);
    const pick = s.orgs['Bulk 07777'];
    const mine = await s.clients.many.req('POST', SEARCH, { body: {}, headers: { 'x-tenant-id': pick } });
    expect(mine.json.results.map((r: { identity: string }) => r.identity)).toEqual(['codeup']);
    expectNoPermission(
      await s.clients.other.req('POST', SEARCH, { body: {}, headers: { 'x-tenant-id': pick } }),
      'not a member of the bulk organisations',
    );
  });
});
