import * as OTPAuth from 'otpauth';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { adminOn, Client, useTestServer, type Answer } from '../kit/server';
import { orgParamName, tenantRoutes } from '../../server/http/tenant';
import { requireSecondFactor, updateOrgPolicies } from '../../server/services/organizations';
import type { PageConfig } from '../../schemas/page-config';

// An organisation may require a second factor of its members (issue 41, item 5). During its grace a member without
// one is admitted and warned (the organisation answer and the page carry the day it starts refusing); after it,
// every request in the organisation's context is refused 403 OrganizationSecondFactorRequired, like an address
// outside its IP whitelist, until the member has a confirmed authenticator app or a passkey. Personal calls, the
// security page above all, are never refused: that is where the member sets one up.

const SEARCH = '/uiless/api/apps:search';
const SWITCH = '/uiless/api/sdk/users/lastWorkspace';
const TWO_FACTOR = '/users/ajax/v1/my/two-factor';
const DAY = 24 * 60 * 60 * 1000;
const CODE = 'OrganizationSecondFactorRequired';

/** What a refusal must look like: 403, the code, the one error shape. */
function expectRefused(a: Answer, what = '') {
  expect(a.status, `${what}: ${a.text}`).toBe(403);
  expect(a.json.code, what).toBe(CODE);
  expect(Object.keys(a.json).sort(), what).toEqual(['code', 'message', 'requestId', 'status']);
}

/** The page config a page was served with. */
async function pageConfig(c: Client, url = '/users/settings/profile') {
  const page = await c.req('GET', url);
  expect(page.status, url).toBe(200);
  const m = /<script[^>]*id="page-config"[^>]*>([\s\S]*?)<\/script>/.exec(page.text);
  return JSON.parse(m![1]) as PageConfig;
}

describe('an organisation requiring a second factor', () => {
  const s = useTestServer({
    seed: {
      orgs: { Strict: ['codeup', 'packages'], Open: { apps: ['codeup'], members: ['alice'] } },
      users: {
        alice: { password: 'Secret#123', org: 'Strict' },
        bob: { password: 'Secret#123', org: 'Strict' },
        carol: { password: 'Secret#123', org: 'Open' },
      },
      signIn: ['alice', 'bob', 'carol'],
    },
  });
  let strict: string;
  let open: string;
  let alice: Client;
  /** apps:search in an organisation, as the web client sends it. */
  const search = (c: Client, org = strict) => c.req('POST', SEARCH, { body: {}, headers: { 'x-tenant-id': org } });
  /** Gives an account a confirmed authenticator app the way the security page does (a first code confirms it). */
  const enrolApp = async (username: string) => {
    const u = s.users[username];
    const { secret } = await s.ctx.secondFactors.startTotp({ id: u.id, username: u.username, name: u.name });
    const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({
      timestamp: s.clock.now().getTime(),
    });
    expect(await s.ctx.secondFactors.confirmTotp(u.id, code)).toBe(true);
  };
  const dropFactors = async (username: string) => {
    await s.ctx.db.deleteFrom('totp_factors').where('user_id', '=', s.users[username].id).execute();
    await s.ctx.db.deleteFrom('webauthn_credentials').where('user_id', '=', s.users[username].id).execute();
  };

  beforeAll(async () => {
    ({ Strict: strict, Open: open } = s.orgs);
    await enrolApp('bob');
  });
  beforeEach(async () => {
    await requireSecondFactor(s.ctx, 'Strict', null);
    await dropFactors('alice');
    ({ alice } = await s.signIn('alice'));
  });

  it('admits a member without one during the grace, with the day it starts refusing; refuses from that day', async () => {
    const start = s.clock.now().getTime();
    const r = await requireSecondFactor(s.ctx, 'Strict', 14);
    expect(r.without).toEqual(['alice']);
    const deadline = start + 14 * DAY;
    expect(r.policy).toEqual({ requiredAt: start, graceDays: 14, enforcedFrom: deadline });

    expect((await search(alice)).status).toBe(200);
    const org = await alice.req('GET', `/uiless/api/organizations/${strict}`);
    expect(org.json).toEqual({ id: strict, name: 'Strict', logo: null, second_factor_deadline: deadline });
    // The page's first render has it too, and the web warns with it.
    const boot = (await pageConfig(alice)).bootstrap!;
    expect(boot.organization).toEqual({ id: strict, name: 'Strict', logo: null, second_factor_deadline: deadline });
    expect(boot.organizationError).toBeNull();
    // A member with a second factor is told nothing.
    const bob = s.clients.bob;
    expect((await bob.req('GET', `/uiless/api/organizations/${strict}`)).json).toEqual({
      id: strict,
      name: 'Strict',
      logo: null,
    });

    // Fourteen days on, one millisecond before the day (the start moved back: sessions last hours, not weeks).
    const now = s.clock.now().getTime();
    await updateOrgPolicies(s.ctx.db, strict, {
      secondFactor: { requiredAt: now + 1 - 14 * DAY, graceDays: 14, enforcedFrom: now + 1 },
    });
    expect((await search(alice)).status).toBe(200);
    s.clock.advance(1);
    expectRefused(await search(alice), 'apps:search');
    expectRefused(await alice.req('GET', `/uiless/api/organizations/${strict}`), 'organisation');
    expect((await search(bob)).status).toBe(200);
    // Another organisation of the same member that requires nothing is not concerned.
    expect((await search(alice, open)).status).toBe(200);
  });

  it('says why in both languages, naming the organisation; the page names it to the notice', async () => {
    await requireSecondFactor(s.ctx, 'Strict', 0);
    const en = await alice.req('POST', SEARCH, {
      body: {},
      headers: { 'x-tenant-id': strict, 'accept-language': 'en' },
    });
    expectRefused(en);
    expect(en.json.message).toBe(
      'Strict requires two-factor authentication: set up an authenticator app or a passkey on your security page to work in it.',
    );
    const zh = await alice.req('POST', SEARCH, {
      body: {},
      headers: { 'x-tenant-id': strict, 'accept-language': 'zh' },
    });
    expect(zh.json.message).toBe(
      '企业 Strict 要求开启两步验证：请在账号安全页设置身份验证器应用或通行密钥后再进入该企业。',
    );
    const boot = (await pageConfig(alice, '/users/settings/security')).bootstrap!;
    expect(boot).toMatchObject({
      organization: null,
      apps: null,
      organizationError: CODE,
      refusedOrganizationName: 'Strict',
    });
    // Other refusals name nothing: a non-member is never told an organisation's name.
    const carol = await s.clients.carol.req('POST', SEARCH, { body: {}, headers: { 'x-tenant-id': strict } });
    expect([carol.status, carol.json.code]).toEqual([403, 'NoOrganizationPermission']);
    expect(carol.text).not.toContain('Strict');
  });

  it('refuses every organisation-scoped route after the grace and changes nothing', async () => {
    await requireSecondFactor(s.ctx, 'Strict', 0);
    const routes = tenantRoutes(s.app).filter((r) => r.tenantHeaderChecked && r.auth === 'session');
    expect(routes.map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining(['POST /uiless/api/apps::search', 'GET /uiless/api/organizations/:id']),
    );
    const snapshot = async () => ({
      organizations: await s.ctx.db.selectFrom('organizations').selectAll().orderBy('id').execute(),
      memberships: await s.ctx.db.selectFrom('memberships').selectAll().orderBy('org_id').orderBy('user_id').execute(),
      users: await s.ctx.db.selectFrom('users').select(['id', 'current_org_id', 'updated_at']).orderBy('id').execute(),
      appPermissions: await s.ctx.db.selectFrom('app_permissions').selectAll().orderBy('org_id').execute(),
    });
    const before = await snapshot();
    /** The request URL with Strict for the organisation param and a probe value for the others. */
    const fill = (url: string) => {
      const param = orgParamName(url);
      return url
        .split('::')
        .map((part) => part.replace(/:([A-Za-z_]\w*)/g, (_m, name: string) => (name === param ? strict : 'probe')))
        .join(':')
        .replace(/\*$/, 'probe');
    };
    for (const r of routes) {
      const body = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method) ? {} : undefined;
      const what = `${r.method} ${r.url}`;
      expectRefused(await alice.req(r.method, fill(r.url), { body, headers: { 'x-tenant-id': strict } }), what);
      // The current organisation, named by nothing: the same.
      if (!orgParamName(r.url)) expectRefused(await alice.req(r.method, fill(r.url), { body }), `${what} (current)`);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('the organisation switch refuses it too, and the current one stays', async () => {
    await requireSecondFactor(s.ctx, 'Strict', 0);
    const toOpen = await alice.req('PUT', SWITCH, { body: { organization_id: open } });
    expect(toOpen.status, toOpen.text).toBe(200);
    expectRefused(await alice.req('PUT', SWITCH, { body: { organization_id: strict } }), 'switch');
    expect((await alice.req('GET', '/individual/proxy/me')).json.organization_id).toBe(open);
    await enrolApp('alice');
    expect((await alice.req('PUT', SWITCH, { body: { organization_id: strict } })).status).toBe(200);
  });

  it('personal calls are never refused: me, preferences, tokens, the security page and its two-factor state', async () => {
    await requireSecondFactor(s.ctx, 'Strict', 0);
    const headers = { 'x-tenant-id': strict };
    expectRefused(await alice.req('POST', SEARCH, { body: {}, headers }));
    const me = await alice.req('GET', '/individual/proxy/me?with_email_info=true', { headers });
    expect([me.status, me.json.organization_id]).toEqual([200, strict]);
    expect((await alice.req('GET', '/users/ajax/v1/my/preferences', { headers })).status).toBe(200);
    expect((await alice.req('POST', '/users/ajax/v1/my/tokens:search', { headers, body: {} })).status).toBe(200);
    const page = await alice.req('GET', '/users/settings/security', { headers });
    expect(page.status).toBe(200);
    const state = await alice.req('GET', TWO_FACTOR, { headers });
    expect(state.status, state.text).toBe(200);
    expect(state.json.required_by).toEqual({
      org: 'Strict',
      deadline: new Date(s.clock.now().getTime()).toISOString(),
    });
    for (const keys of ['/uiless/proxy/codeup/api/v3/user/keys', '/codeup/api/v3/user/keys']) {
      expect((await alice.req('GET', keys, { headers })).status, keys).toBe(200);
    }
  });

  it('admits the member once they have a confirmed app or a passkey; an unconfirmed app is none', async () => {
    await requireSecondFactor(s.ctx, 'Strict', 0);
    const u = s.users.alice;
    const now = s.clock.now().getTime();
    // An app whose first code never came.
    await s.ctx.secondFactors.startTotp({ id: u.id, username: u.username, name: u.name });
    expectRefused(await search(alice), 'unconfirmed app');
    await enrolApp('alice');
    expect((await search(alice)).status).toBe(200);
    expect((await alice.req('GET', `/uiless/api/organizations/${strict}`)).json).not.toHaveProperty(
      'second_factor_deadline',
    );
    await dropFactors('alice');
    expectRefused(await search(alice), 'factor removed');
    await s.ctx.db
      .insertInto('webauthn_credentials')
      .values({
        id: 'pk-alice',
        user_id: u.id,
        credential_id: 'cred-alice',
        public_key: 'key',
        counter: 0,
        transports: null,
        discoverable: 1,
        name: 'My key',
        created_at: now,
        last_used_at: null,
      })
      .execute();
    expect((await search(alice)).status).toBe(200);
  });

  it('checks it last: an address outside the whitelist is told so first', async () => {
    await requireSecondFactor(s.ctx, 'Strict', 0);
    await updateOrgPolicies(s.ctx.db, strict, { ipWhitelist: ['10.0.0.0/8'] });
    try {
      const a = await search(alice);
      expect([a.status, a.json.code]).toEqual([403, 'OrganizationIpRestricted']);
    } finally {
      await updateOrgPolicies(s.ctx.db, strict, { ipWhitelist: [] });
    }
    expectRefused(await search(alice));
  });

  it('lifting the requirement admits the member at once', async () => {
    await requireSecondFactor(s.ctx, 'Strict', 0);
    expectRefused(await search(alice));
    await requireSecondFactor(s.ctx, 'Strict', null);
    expect((await search(alice)).status).toBe(200);
  });

  it("the admin command tells the organisation's members in their inbox, with the way to the security page", async () => {
    const r = await adminOn(s, 'require-second-factor', '--org', 'Strict', '--grace-days', '7');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('1 of 2 member(s) have no second factor: alice');
    const msgs = async (c: Client, locale = 'en-US') => {
      const a = await c.req('POST', '/users/ajax/v1/notifications/inbox/messages:list', {
        body: { page_size: 100 },
        headers: { 'accept-language': locale },
      });
      expect(a.status, a.text).toBe(200);
      return (a.json.messages as Array<{ type: string; title: string; body: string; link: string | null }>).filter(
        (m) => m.type === 'org.second-factor-required',
      );
    };
    const [m] = await msgs(alice);
    expect(m.title).toBe('Two-factor authentication required');
    expect(m.body).toMatch(
      /^Strict now requires its members to use two-factor authentication\. If you have no authenticator app or passkey yet, set one up on the security page before \d{4}-\d\d-\d\d \d\d:\d\d \(UTC\): from then on, Strict refuses your requests\.$/,
    );
    expect(m.link).toBe('/users/settings/security');
    expect((await msgs(alice, 'zh-CN'))[0].title).toBe('企业要求开启两步验证');
    expect(await msgs(s.clients.bob)).toHaveLength(1);
    // Not a member of Strict: nothing.
    expect(await msgs(s.clients.carol)).toEqual([]);
    // Run again with the same grace: the day does not move, so nobody is told twice.
    await adminOn(s, 'require-second-factor', '--org', 'Strict', '--grace-days', '7');
    expect(await msgs(alice)).toHaveLength(1);
  });
});
