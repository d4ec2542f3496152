import fs from 'node:fs';
import crypto from 'node:crypto';
import { Migrator, type Kysely } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { Client, tempDataDir, useTestServer } from '../kit/server';
import { allMigrations, dropPgSchema, openDatabase } from '../../server/db/index';
import type { UsersTable } from '../../server/db/schema';
import { discoverServerPlugins } from '../../server/plugin-loader';
import { createOrganizationsBulk, updateOrgPolicies } from '../../server/services/organizations';
import { ORG_NEXT_TOKEN_MAX, ORG_PAGE_SIZE_MAX, MEMBERS_LOOKUP_MAX } from '../../plugins/switch-org/limits';
import { encodePageToken } from '../../plugins/switch-org/server/service';

const LIST = '/individual/proxy/my/organizations';
const SWITCH = '/uiless/api/sdk/users/lastWorkspace';

/** Byte order of the lower-cased names (ASCII here), the order the list promises on both engines. */
const byName = (a: { name: string }, b: { name: string }) => {
  const [x, y] = [a.name.toLowerCase(), b.name.toLowerCase()];
  return x < y ? -1 : x > y ? 1 : 0;
};

describe('organisation list: keyset pages of 50 by name', () => {
  const s = useTestServer({
    seed: {
      orgs: { 'Lone Org': [] },
      users: {
        many: { password: 'Secret#123' },
        lone: { password: 'Secret#123', org: 'Lone Org' },
        nobody: { password: 'Secret#123' },
      },
      signIn: ['many', 'lone', 'nobody'],
    },
  });
  let many: Client;
  let manyId: string;
  // 120 names in a shuffled insertion order, mixed case, so neither insertion nor case decides the order.
  const names = Array.from({ length: 120 }, (_, i) => {
    const n = (i * 37) % 120;
    return `${n % 3 === 0 ? 'org' : 'Org'} ${String(n).padStart(3, '0')}${n % 7 === 0 ? ' Beta' : ''}`;
  });
  let expected: Array<{ id: string; name: string; logo: null }>;

  const page = (c: Client, body: Record<string, unknown>) => c.req('POST', LIST, { body });

  beforeAll(async () => {
    many = s.clients.many;
    manyId = s.users.many.id;
    const ids = await createOrganizationsBulk(s.ctx, { names, memberIds: [manyId], apps: ['codeup'] });
    expected = names.map((name, i) => ({ id: ids[i], name, logo: null })).sort(byName);
  });

  it('walks 120 organisations in pages of 50, 50 and 20: ordered by name, none twice, none left out', async () => {
    const first = await page(many, { user_id: manyId, pagination: { page_size: 50 } });
    expect(first.status).toBe(200);
    expect(first.json.organizations).toHaveLength(50);
    expect(first.json.pages.next_token).toEqual(expect.any(String));
    const second = await page(many, {
      user_id: manyId,
      pagination: { next_token: first.json.pages.next_token, page_size: 50 },
    });
    expect(second.json.organizations).toHaveLength(50);
    const third = await page(many, {
      user_id: manyId,
      pagination: { next_token: second.json.pages.next_token, page_size: 50 },
    });
    expect(third.status).toBe(200);
    expect(third.json.organizations).toHaveLength(20);
    expect(third.json.pages).toEqual({ next_token: null });
    const all = [...first.json.organizations, ...second.json.organizations, ...third.json.organizations];
    expect(all).toEqual(expected);
    expect(new Set(all.map((o) => o.id)).size).toBe(120);
  });

  it('pages of 50 by default (no pagination, or a null / empty token: the first page)', async () => {
    for (const body of [
      { user_id: manyId },
      { user_id: manyId, pagination: {} },
      { user_id: manyId, pagination: { next_token: null } },
      { user_id: manyId, pagination: { next_token: '' } },
    ]) {
      const a = await page(many, body);
      expect(a.status).toBe(200);
      expect(a.json.organizations).toEqual(expected.slice(0, ORG_PAGE_SIZE_MAX));
    }
  });

  it('smaller pages follow the same order; a page size over 50 or under 1 is refused', async () => {
    let token: string | null = null;
    const seen: string[] = [];
    do {
      const a = await page(many, { user_id: manyId, pagination: { page_size: 7, next_token: token } });
      expect(a.status).toBe(200);
      expect(a.json.organizations.length).toBeLessThanOrEqual(7);
      seen.push(...a.json.organizations.map((o: { id: string }) => o.id));
      token = a.json.pages.next_token;
    } while (token);
    expect(seen).toEqual(expected.map((o) => o.id));
    for (const page_size of [51, 0, 1.5]) {
      const a = await page(many, { user_id: manyId, pagination: { page_size } });
      expect(a.status).toBe(400);
      expect(a.json.code).toBe('InvalidParameter');
    }
  });

  it('an exactly full last page answers a null token (no empty page after it)', async () => {
    const a = await page(many, { user_id: manyId, pagination: { page_size: 60 } });
    expect(a.status).toBe(400);
    const first = await page(many, { user_id: manyId, pagination: { page_size: 40 } });
    const second = await page(many, {
      user_id: manyId,
      pagination: { page_size: 40, next_token: first.json.pages.next_token },
    });
    const third = await page(many, {
      user_id: manyId,
      pagination: { page_size: 40, next_token: second.json.pages.next_token },
    });
    expect(third.json.organizations).toHaveLength(40);
    expect(third.json.pages.next_token).toBeNull();
  });

  it('a token is a position, not an offset: organisations added before it do not shift the next page', async () => {
    const first = await page(many, { user_id: manyId, pagination: { page_size: 10 } });
    await createOrganizationsBulk(s.ctx, { names: ['AAA inserted first'], memberIds: [manyId] });
    const second = await page(many, {
      user_id: manyId,
      pagination: { page_size: 10, next_token: first.json.pages.next_token },
    });
    expect(second.json.organizations).toEqual(expected.slice(10, 20));
    const fresh = await page(many, { user_id: manyId, pagination: { page_size: 1 } });
    expect(fresh.json.organizations[0].name).toBe('AAA inserted first');
  });

  it('a renamed organisation moves to its new place in the order (the sort key follows the name)', async () => {
    const target = expected[5];
    await s.ctx.db
      .updateTable('organizations')
      .set({ name: 'zzz Renamed', name_lower: 'zzz renamed' })
      .where('id', '=', target.id)
      .execute();
    try {
      const all: Array<{ id: string; name: string }> = [];
      let token: string | null = null;
      do {
        const a = await page(many, { user_id: manyId, pagination: { next_token: token } });
        all.push(...a.json.organizations);
        token = a.json.pages.next_token;
      } while (token);
      expect(all[all.length - 1]).toEqual({ id: target.id, name: 'zzz Renamed', logo: null });
      expect(all.filter((o) => o.id === target.id)).toHaveLength(1);
    } finally {
      await s.ctx.db
        .updateTable('organizations')
        .set({ name: target.name, name_lower: target.name.toLowerCase() })
        .where('id', '=', target.id)
        .execute();
    }
  });

  it('another user id answers 404 like a missing one; nobody lists someone else’s organisations', async () => {
    const lone = s.clients.lone;
    for (const user_id of [manyId, '000000000000000000000000']) {
      const a = await page(lone, { user_id });
      expect(a.status).toBe(404);
      expect(a.json.code).toBe('NotFound');
    }
    const own = await page(lone, { user_id: s.users.lone.id });
    expect(own.json).toEqual({
      organizations: [{ id: s.orgs['Lone Org'], name: 'Lone Org', logo: null }],
      pages: { next_token: null },
    });
    expect((await new Client(s.url).req('POST', LIST, { body: { user_id: manyId } })).status).toBe(401);
  });

  it('the token of the longest name the service stores (200 CJK characters) is accepted', async () => {
    const name = `A${'组'.repeat(199)}`;
    await createOrganizationsBulk(s.ctx, { names: [name], memberIds: [s.users.lone.id] });
    const lone = s.clients.lone;
    const first = await page(lone, { user_id: s.users.lone.id, pagination: { page_size: 1 } });
    expect(first.json.organizations[0].name).toBe(name);
    const second = await page(lone, {
      user_id: s.users.lone.id,
      pagination: { page_size: 1, next_token: first.json.pages.next_token },
    });
    expect(second.status).toBe(200);
    expect(second.json.organizations[0].name).toBe('Lone Org');
  });

  it('a user in no organisation gets an empty list', async () => {
    const a = await page(s.clients.nobody, { user_id: s.users.nobody.id });
    expect(a.status).toBe(200);
    expect(a.json).toEqual({ organizations: [], pages: { next_token: null } });
  });

  it('a forged or damaged next_token answers 400 InvalidParameter', async () => {
    const valid = (await page(many, { user_id: manyId, pagination: { page_size: 1 } })).json.pages.next_token;
    const b64 = (v: string) => Buffer.from(v).toString('base64url');
    for (const next_token of [
      'not a token',
      '!!!!',
      b64('{"name":"x"}'),
      b64('["only one"]'),
      b64('[1, 2]'),
      b64('["x", ""]'),
      b64(JSON.stringify(['x', 'y'.repeat(65)])),
      b64('not json'),
      `${valid}=`,
      `${valid}A`,
      'x'.repeat(ORG_NEXT_TOKEN_MAX + 1),
    ]) {
      const a = await page(many, { user_id: manyId, pagination: { next_token } });
      expect(a.status, next_token).toBe(400);
      expect(a.json.code).toBe('InvalidParameter');
    }
    // A well-formed key the service could have issued is only a position: it reveals nothing.
    const made = await page(many, {
      user_id: manyId,
      pagination: { next_token: encodePageToken({ name: 'org 100', id: '0' }) },
    });
    expect(made.status).toBe(200);
    expect(made.json.organizations[0].name.toLowerCase() >= 'org 100').toBe(true);
  });

  it('refuses unknown fields in the body and pagination (closed objects)', async () => {
    expect((await page(many, { user_id: manyId, extra: 1 })).status).toBe(400);
    expect((await page(many, { user_id: manyId, pagination: { current_page: 2 } })).status).toBe(400);
    expect((await page(many, {})).status).toBe(400);
  });
});

describe('switching organisation (lastWorkspace)', () => {
  const s = useTestServer({
    seed: {
      orgs: { Home: ['codeup'], Away: ['packages'], Foreign: [], Walled: [] },
      users: {
        alice: { password: 'Secret#123', org: 'Home' },
        mallory: { password: 'Secret#123', org: 'Foreign' },
      },
      signIn: ['alice'],
    },
  });
  let alice: Client;
  beforeAll(async () => {
    alice = s.clients.alice;
    for (const org of ['Away', 'Walled'])
      await s.ctx.db
        .insertInto('memberships')
        .values({ org_id: s.orgs[org], user_id: s.users.alice.id, role: 'member', created_at: 0 })
        .execute();
  });
  const me = async () => (await alice.req('GET', '/individual/proxy/me')).json.organization_id;

  it('a member switches; /individual/proxy/me then names the new organisation', async () => {
    expect(await me()).toBe(s.orgs.Home);
    const a = await alice.req('PUT', SWITCH, { body: { organization_id: s.orgs.Away } });
    expect(a.status).toBe(200);
    expect(a.json).toEqual({ organization_id: s.orgs.Away });
    expect(await me()).toBe(s.orgs.Away);
    const apps = await alice.req('POST', '/uiless/api/apps:search', { body: {} });
    expect(apps.json.results.map((r: { identity: string }) => r.identity)).toEqual(['packages']);
    // The old organisation in x-tenant-id (what the web client still sends) does not decide the switch.
    const back = await alice.req('PUT', SWITCH, {
      body: { organization_id: s.orgs.Home },
      headers: { 'x-tenant-id': s.orgs.Away },
    });
    expect(back.status).toBe(200);
    expect(await me()).toBe(s.orgs.Home);
  });

  it('an organisation of someone else, or none at all, is refused with NoOrganizationPermission', async () => {
    for (const organization_id of [s.orgs.Foreign, '000000000000000000000000']) {
      const a = await alice.req('PUT', SWITCH, { body: { organization_id } });
      expect(a.status).toBe(403);
      expect(a.json.code).toBe('NoOrganizationPermission');
    }
    expect(await me()).toBe(s.orgs.Home);
    expect((await alice.req('PUT', SWITCH, { body: {} })).status).toBe(400);
    expect((await alice.req('PUT', SWITCH, { body: { organization_id: s.orgs.Away }, csrf: false })).status).toBe(403);
  });

  it('an organisation whose IP whitelist excludes the caller cannot be switched to', async () => {
    await updateOrgPolicies(s.ctx.db, s.orgs.Walled, { ipWhitelist: ['10.0.0.0/8'] });
    const a = await alice.req('PUT', SWITCH, { body: { organization_id: s.orgs.Walled } });
    expect(a.status).toBe(403);
    expect(a.json.code).toBe('OrganizationIpRestricted');
    expect(await me()).toBe(s.orgs.Home);
    await updateOrgPolicies(s.ctx.db, s.orgs.Walled, { ipWhitelist: ['127.0.0.0/8'] });
    expect((await alice.req('PUT', SWITCH, { body: { organization_id: s.orgs.Walled } })).status).toBe(200);
    expect(await me()).toBe(s.orgs.Walled);
    await alice.req('PUT', SWITCH, { body: { organization_id: s.orgs.Home } });
  });

  it('the organisation being left does not decide: a user in a blocked one can still switch away', async () => {
    await updateOrgPolicies(s.ctx.db, s.orgs.Home, { ipWhitelist: ['10.0.0.0/8'] });
    try {
      const apps = await alice.req('POST', '/uiless/api/apps:search', {
        body: {},
        headers: { 'x-tenant-id': s.orgs.Home },
      });
      expect(apps.json.code).toBe('OrganizationIpRestricted');
      const a = await alice.req('PUT', SWITCH, {
        body: { organization_id: s.orgs.Away },
        headers: { 'x-tenant-id': s.orgs.Home },
      });
      expect(a.status).toBe(200);
      expect(await me()).toBe(s.orgs.Away);
      // …and cannot switch back while the whitelist excludes them.
      const back = await alice.req('PUT', SWITCH, { body: { organization_id: s.orgs.Home } });
      expect(back.json.code).toBe('OrganizationIpRestricted');
    } finally {
      await updateOrgPolicies(s.ctx.db, s.orgs.Home, { ipWhitelist: [] });
      await alice.req('PUT', SWITCH, { body: { organization_id: s.orgs.Home } });
    }
  });

  it('an organisation whose licence has expired cannot be switched to', async () => {
    await updateOrgPolicies(s.ctx.db, s.orgs.Away, { licenceExpiresAt: s.clock.now().getTime() + 60_000 });
    try {
      expect((await alice.req('PUT', SWITCH, { body: { organization_id: s.orgs.Away } })).status).toBe(200);
      s.clock.advance(60_000);
      const a = await alice.req('PUT', SWITCH, { body: { organization_id: s.orgs.Away } });
      expect(a.status).toBe(403);
      expect(a.json.code).toBe('OrganizationLicenceExpired');
    } finally {
      await updateOrgPolicies(s.ctx.db, s.orgs.Away, { licenceExpiresAt: null });
      await alice.req('PUT', SWITCH, { body: { organization_id: s.orgs.Home } });
    }
  });
});

describe('app entry guard, permissions, admins, help links', () => {
  const s = useTestServer({
    seed: {
      orgs: { Acme: ['codeup', 'packages', 'lingma'], Other: ['codeup'] },
      users: {
        alice: { password: 'Secret#123', org: 'Acme' },
        bob: { password: 'Secret#123', org: 'Acme', name: 'Bob Builder' },
        boss: { password: 'Secret#123', org: 'Acme' },
        olga: { password: 'Secret#123', org: 'Other' },
      },
      signIn: ['alice', 'bob', 'boss'],
    },
  });
  let alice: Client;
  let acme: string;
  let other: string;
  const en = { 'accept-language': 'en-US' };
  const access = (c: Client, org: string, app: string) => c.req('GET', `/uiless/api/organizations/${org}/apps/${app}`);
  const codeup = () => s.ctx.edition.appSwitcher.find((d) => d.key === 'codeup')!;
  const installedId = async (org: string, key: string) =>
    (
      await s.ctx.db
        .selectFrom('org_apps')
        .select('app_id')
        .where('org_id', '=', org)
        .where('app_key', '=', key)
        .executeTakeFirstOrThrow()
    ).app_id;

  beforeAll(async () => {
    alice = s.clients.alice;
    ({ Acme: acme, Other: other } = s.orgs);
    const db = s.ctx.db;
    await db.updateTable('memberships').set({ role: 'admin' }).where('user_id', '=', s.users.boss.id).execute();
    // packages is restricted in Acme: bob holds permissions, alice none; lingma has bob as its admin.
    await db
      .insertInto('app_permissions')
      .values([
        { org_id: acme, app_key: 'packages', user_id: s.users.bob.id, permission: 'repo:write' },
        { org_id: acme, app_key: 'packages', user_id: s.users.bob.id, permission: 'repo:read' },
        { org_id: acme, app_key: 'codeup', user_id: s.users.alice.id, permission: 'push' },
        { org_id: acme, app_key: 'lingma', user_id: s.users.alice.id, permission: 'chat' },
        { org_id: other, app_key: 'codeup', user_id: s.users.olga.id, permission: 'admin-secret' },
      ])
      .execute();
    await db
      .insertInto('app_admins')
      .values([
        { org_id: acme, app_key: 'lingma', user_id: s.users.bob.id },
        { org_id: acme, app_key: 'codeup', user_id: s.users.boss.id },
        { org_id: other, app_key: 'codeup', user_id: s.users.olga.id },
      ])
      .execute();
  });

  it('access passes for an installed app named by key, edition id, vpc id or installed id', async () => {
    const d = codeup();
    for (const ref of [d.key, d.id!, d.vpcId!, await installedId(acme, 'codeup')]) {
      const a = await access(alice, acme, ref);
      expect(a.status, ref).toBe(200);
      expect(a.json).toEqual({ pass: true });
    }
  });

  it('access fails for an app not installed (or unknown) and for a restricted app without permission', async () => {
    for (const ref of ['projex', '5f0c1a2b3c4d5e6f7a8b9c02', 'vpc-8b9c02', 'no-such-app']) {
      expect((await access(alice, acme, ref)).json).toEqual({ pass: false, reason: 'notInstalled' });
    }
    expect((await access(alice, acme, 'packages')).json).toEqual({ pass: false, reason: 'noPermission' });
    expect((await access(s.clients.bob, acme, 'packages')).json).toEqual({ pass: true });
    // Organisation admins pass every installed app.
    expect((await access(s.clients.boss, acme, 'packages')).json).toEqual({ pass: true });
  });

  it('an organisation the caller does not belong to answers 403, whatever the app', async () => {
    for (const org of [other, '000000000000000000000000']) {
      const a = await access(alice, org, 'codeup');
      expect(a.status).toBe(403);
      expect(a.json.code).toBe('NoOrganizationPermission');
    }
  });

  it('app info: the installed app with raw_url from the edition, the organisation from x-tenant-id', async () => {
    const id = await installedId(acme, 'codeup');
    const d = codeup();
    const editionUrl = d.url;
    try {
      delete d.url;
      const a = await alice.req('GET', '/uiless/apps/codeup', { headers: { ...en, 'x-tenant-id': acme } });
      expect(a.status).toBe(200);
      expect(a.json).toEqual({ id, key: 'codeup', name: 'Codeup', raw_url: null });
      d.url = 'https://codeup.example.com/';
      const byVpc = await alice.req('GET', `/uiless/apps/${d.vpcId}`, { headers: { ...en, 'x-tenant-id': acme } });
      expect(byVpc.json).toEqual({ id, key: 'codeup', name: 'Codeup', raw_url: 'https://codeup.example.com/' });
      // Without x-tenant-id: the current organisation.
      const current = await alice.req('GET', `/uiless/apps/${id}`, { headers: en });
      expect(current.json.raw_url).toBe('https://codeup.example.com/');
    } finally {
      if (editionUrl === undefined) delete d.url;
      else d.url = editionUrl;
    }
    const zh = await alice.req('GET', '/uiless/apps/codeup', {
      headers: { 'accept-language': 'zh-CN', 'x-tenant-id': acme },
    });
    expect(zh.json).toMatchObject({ name: '代码管理', raw_url: editionUrl ?? null });
  });

  it('app info: not installed is 404 AppNotFound; a foreign x-tenant-id is 403', async () => {
    const a = await alice.req('GET', '/uiless/apps/projex', { headers: { ...en, 'x-tenant-id': acme } });
    expect(a.status).toBe(404);
    expect(a.json).toMatchObject({
      code: 'AppNotFound',
      message: 'The application is not installed in this organization.',
    });
    const foreign = await alice.req('GET', '/uiless/apps/codeup', { headers: { 'x-tenant-id': other } });
    expect(foreign.status).toBe(403);
    expect(foreign.json.code).toBe('NoOrganizationPermission');
  });

  it('permissions: the caller’s own, sorted; admins get every permission of the app there', async () => {
    const perms = (c: Client, app: string, org = acme) =>
      c.req('GET', `/uiless/api/organizations/${org}/apps/${app}/permissions`);
    expect((await perms(alice, 'codeup')).json).toEqual({ permissions: ['push'] });
    expect((await perms(alice, 'packages')).json).toEqual({ permissions: [] });
    expect((await perms(s.clients.bob, 'packages')).json).toEqual({ permissions: ['repo:read', 'repo:write'] });
    expect((await perms(s.clients.bob, 'lingma')).json).toEqual({ permissions: ['chat'] });
    expect((await perms(s.clients.boss, 'packages')).json).toEqual({ permissions: ['repo:read', 'repo:write'] });
    expect((await perms(alice, 'projex')).status).toBe(404);
    const foreign = await perms(alice, 'codeup', other);
    expect(foreign.status).toBe(403);
    expect(foreign.json.code).toBe('NoOrganizationPermission');
  });

  it('app admins of the organisation, by app then name; another organisation’s are refused', async () => {
    const a = await alice.req('GET', `/uiless/api/organizations/${acme}/appAdmins`);
    expect(a.status).toBe(200);
    expect(a.json).toEqual({
      admins: [
        { user_id: s.users.boss.id, name: 'boss', app_key: 'codeup' },
        { user_id: s.users.bob.id, name: 'Bob Builder', app_key: 'lingma' },
      ],
    });
    const foreign = await alice.req('GET', `/uiless/api/organizations/${other}/appAdmins`);
    expect(foreign.status).toBe(403);
    expect(foreign.json.code).toBe('NoOrganizationPermission');
  });

  it('the organisation’s policies apply to every guard call; help links stay personal', async () => {
    await updateOrgPolicies(s.ctx.db, acme, { ipWhitelist: ['2001:db8::/32'] });
    try {
      for (const path of [
        `/uiless/api/organizations/${acme}/apps/codeup`,
        `/uiless/api/organizations/${acme}/apps/codeup/permissions`,
        `/uiless/api/organizations/${acme}/appAdmins`,
        `/api/organizations/${acme}/members/list?userIds=${s.users.bob.id}`,
      ]) {
        const a = await alice.req('GET', path);
        expect(a.status, path).toBe(403);
        expect(a.json.code, path).toBe('OrganizationIpRestricted');
      }
      const info = await alice.req('GET', '/uiless/apps/codeup', { headers: { 'x-tenant-id': acme } });
      expect(info.json.code).toBe('OrganizationIpRestricted');
      const help = await alice.req('GET', '/uiless/api/helpLink/helpCenter', { headers: { 'x-tenant-id': acme } });
      expect(help.status).toBe(200);
    } finally {
      await updateOrgPolicies(s.ctx.db, acme, { ipWhitelist: [] });
    }
  });

  it('a foreign x-tenant-id beside an organisation of mine in the path is refused too', async () => {
    const a = await alice.req('GET', `/uiless/api/organizations/${acme}/apps/codeup`, {
      headers: { 'x-tenant-id': other },
    });
    expect(a.status).toBe(403);
    expect(a.json.code).toBe('NoOrganizationPermission');
  });

  it('help links: the edition’s url by purpose; an unknown purpose is 404 HelpLinkNotFound', async () => {
    const help = await alice.req('GET', '/uiless/api/helpLink/helpCenter');
    expect(help.status).toBe(200);
    expect(help.json).toEqual({ url: s.ctx.edition.helpLinks.helpCenter });
    for (const id of ['nope', 'constructor', '__proto__', 'toString']) {
      const a = await alice.req('GET', `/uiless/api/helpLink/${id}`, { headers: en });
      expect(a.status, id).toBe(404);
      expect(a.json).toMatchObject({ code: 'HelpLinkNotFound', message: 'The help link does not exist.' });
    }
    expect((await new Client(s.url).req('GET', '/uiless/api/helpLink/helpCenter')).status).toBe(401);
  });
});

describe('members lookup', () => {
  const s = useTestServer({
    seed: {
      orgs: { Acme: [], Beta: [], Far: [] },
      users: {
        alice: { password: 'Secret#123', org: 'Acme', name: 'Alice A' },
        bob: { password: 'Secret#123', org: 'Acme', name: 'Bob B' },
        bea: { password: 'Secret#123', org: 'Beta', name: 'Bea' },
        far: { password: 'Secret#123', org: 'Far', name: 'Far Away' },
        loner: { password: 'Secret#123', name: 'Loner' },
      },
      signIn: ['alice', 'loner'],
    },
  });
  let alice: Client;
  beforeAll(async () => {
    alice = s.clients.alice;
    await s.ctx.db
      .insertInto('memberships')
      .values({ org_id: s.orgs.Beta, user_id: s.users.alice.id, role: 'member', created_at: 0 })
      .execute();
  });
  const ids = (...names: string[]) => names.map((n) => (n in s.users ? s.users[n].id : n)).join(',');
  const member = (n: string) => ({ id: s.users[n].id, name: s.users[n].name, avatar: null });

  it('answers users sharing an organisation with the caller, in the order asked; others are left out', async () => {
    const a = await alice.req(
      'GET',
      `/api/members/list?userIds=${ids('bea', 'far', 'bob', 'unknown-id', 'alice', 'loner', 'bob')}`,
    );
    expect(a.status).toBe(200);
    expect(a.json).toEqual({ members: [member('bea'), member('bob'), member('alice')] });
    expect((await alice.req('GET', '/api/members/list?userIds=')).json).toEqual({ members: [] });
    expect(
      (await alice.req('GET', `/api/members/list?userIds=${encodeURIComponent(` ${ids('bob')} ,,`)}`)).json,
    ).toEqual({
      members: [member('bob')],
    });
    // A user in no organisation shares none with anybody.
    expect((await s.clients.loner.req('GET', `/api/members/list?userIds=${ids('alice', 'loner')}`)).json).toEqual({
      members: [],
    });
  });

  it(`refuses more than ${MEMBERS_LOOKUP_MAX} ids, a missing query and anonymous callers`, async () => {
    const many = Array.from({ length: MEMBERS_LOOKUP_MAX + 1 }, (_, i) => `u${i}`).join(',');
    const a = await alice.req('GET', `/api/members/list?userIds=${many}`, { headers: { 'accept-language': 'en-US' } });
    expect(a.status).toBe(400);
    expect(a.json).toMatchObject({
      code: 'MembersLookupTooMany',
      message: 'At most 100 users can be looked up at once.',
    });
    const hundred = Array.from({ length: MEMBERS_LOOKUP_MAX }, (_, i) => `u${i}`).join(',');
    expect((await alice.req('GET', `/api/members/list?userIds=${hundred}`)).status).toBe(200);
    expect((await alice.req('GET', '/api/members/list')).status).toBe(400);
    expect((await new Client(s.url).req('GET', `/api/members/list?userIds=${ids('bob')}`)).status).toBe(401);
  });

  it('private deployments: members of that organisation only; a foreign organisation is refused', async () => {
    const a = await alice.req(
      'GET',
      `/api/organizations/${s.orgs.Acme}/members/list?userIds=${ids('bea', 'bob', 'alice')}`,
    );
    expect(a.status).toBe(200);
    expect(a.json).toEqual({ members: [member('bob'), member('alice')] });
    for (const org of [s.orgs.Far, '000000000000000000000000']) {
      const r = await alice.req('GET', `/api/organizations/${org}/members/list?userIds=${ids('far')}`);
      expect(r.status).toBe(403);
      expect(r.json.code).toBe('NoOrganizationPermission');
    }
  });
});

describe('migration 041: the sort key of existing memberships', () => {
  it('backfills org_name_lower on upgrade, keeps it with triggers, and goes down cleanly', async () => {
    const dataDir = tempDataDir('account-041-');
    const databaseUrl = process.env.DATABASE_URL;
    const pgSchema = databaseUrl ? `t_${crypto.randomBytes(6).toString('hex')}` : undefined;
    const { db, close } = await openDatabase({ dataDir, databaseUrl, pgSchema });
    const migrator = new Migrator({
      db,
      provider: { getMigrations: async () => allMigrations(await discoverServerPlugins()) },
      ...(pgSchema ? { migrationTableSchema: pgSchema } : {}),
    });
    const key = async () =>
      (
        await db
          .selectFrom('memberships')
          .select('org_name_lower')
          .where('user_id', '=', 'u1')
          .executeTakeFirstOrThrow()
      ).org_name_lower;
    try {
      expect((await migrator.migrateTo('040-org-policies')).error).toBeUndefined();
      const org = { id: 'o1', name: 'Old Org', name_lower: 'old org', logo: null, created_at: 0 };
      await db.insertInto('organizations').values(org).execute();
      // The users table as it was at 040: color_scheme comes with migration 064.
      await (db as unknown as Kysely<{ users: Omit<UsersTable, 'color_scheme'> }>)
        .insertInto('users')
        .values({
          id: 'u1',
          username: 'u1',
          username_lower: 'u1',
          name: 'u1',
          email: null,
          email_verified: 0,
          avatar: null,
          language: null,
          must_change_password: 0,
          password_hash: null,
          current_org_id: null,
          created_at: 0,
          updated_at: 0,
        })
        .execute();
      await db
        .insertInto('memberships')
        .values({ org_id: 'o1', user_id: 'u1', role: 'member', created_at: 0 })
        .execute();
      expect((await migrator.migrateTo('041-switch-org')).error).toBeUndefined();
      expect(await key()).toBe('old org');
      await db.updateTable('organizations').set({ name: 'New', name_lower: 'new' }).where('id', '=', 'o1').execute();
      expect(await key()).toBe('new');
      // Whatever a writer puts there, the trigger takes the organisation's.
      await db.deleteFrom('memberships').execute();
      await db
        .insertInto('memberships')
        .values({ org_id: 'o1', user_id: 'u1', role: 'member', created_at: 0, org_name_lower: 'forged' })
        .execute();
      expect(await key()).toBe('new');
      expect((await migrator.migrateTo('040-org-policies')).error).toBeUndefined();
      expect((await migrator.migrateTo('041-switch-org')).error).toBeUndefined();
      expect(await key()).toBe('new');
    } finally {
      await close();
      if (pgSchema && databaseUrl) await dropPgSchema(databaseUrl, pgSchema);
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
