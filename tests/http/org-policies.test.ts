import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Client, useTestServer, type Answer } from '../kit/server';
import {
  setLicenceExpiry,
  setOrderExpiry,
  updateOrgPolicies,
  type OrgPolicies,
} from '../../server/services/organizations';

// Organisation policies enforced by the service on every request made in an organisation's context: the IP
// whitelist (client address from the socket, or X-Forwarded-For from a TRUST_PROXY proxy), the licence and the
// standard-edition order. Personal calls carry no organisation context and keep working under every policy.

const SEARCH = '/uiless/api/apps:search';
const MIN = 60 * 1000;
const NO_POLICY: OrgPolicies = { ipWhitelist: null, licenceExpiresAt: null, orderExpiresAt: null };

/** What a refusal must look like: 403, the code, and nothing of the organisation in the body. */
function expectRefused(a: Answer, code: string) {
  expect(a.status, a.text).toBe(403);
  expect(a.json.code).toBe(code);
  expect(Object.keys(a.json).sort()).toEqual(['code', 'message', 'requestId', 'status']);
}

describe('organisation policies behind a trusted proxy (TRUST_PROXY=127.0.0.1)', () => {
  const s = useTestServer({
    env: { TRUST_PROXY: '127.0.0.1' },
    seed: {
      orgs: { Walled: ['codeup', 'packages'], Open: { apps: ['codeup'], members: ['alice'] } },
      users: {
        alice: { password: 'Secret#123', org: 'Walled' },
      },
      signIn: ['alice'],
    },
  });
  let alice: Client;
  let walled: string;
  let open: string;
  const policy = (change: Partial<OrgPolicies>) => updateOrgPolicies(s.ctx.db, walled, { ...NO_POLICY, ...change });
  /** apps:search in Walled, as the web client sends it, from `ip` as the proxy reports it. */
  const search = (ip?: string, org = walled, c = alice) =>
    c.req('POST', SEARCH, {
      body: {},
      headers: { 'x-tenant-id': org, ...(ip ? { 'x-forwarded-for': ip } : {}) },
    });
  const allowed = async (ip: string) => {
    const a = await search(ip);
    if (a.status === 200) return true;
    expectRefused(a, 'OrganizationIpRestricted');
    return false;
  };

  beforeAll(() => {
    ({ Walled: walled, Open: open } = s.orgs);
  });
  beforeEach(async () => {
    await updateOrgPolicies(s.ctx.db, walled, NO_POLICY);
    ({ alice } = await s.signIn('alice'));
  });

  it('an IPv4 whitelist admits addresses inside it and refuses the rest with its own code, in both languages', async () => {
    await policy({ ipWhitelist: ['10.0.0.0/8', '192.168.1.0/24'] });
    const ok = await search('10.20.30.40');
    expect(ok.status).toBe(200);
    expect(ok.json.results.map((r: { identity: string }) => r.identity)).toEqual(['codeup', 'packages']);
    expect(await allowed('192.168.1.255')).toBe(true);
    expect(await allowed('192.168.2.1')).toBe(false);
    expect(await allowed('11.0.0.1')).toBe(false);
    // Without X-Forwarded-For the proxy itself (127.0.0.1) is the client, outside the list.
    expect(await allowed('')).toBe(false);

    const en = await alice.req('POST', SEARCH, {
      body: {},
      headers: { 'x-tenant-id': walled, 'x-forwarded-for': '8.8.8.8', 'accept-language': 'en-US' },
    });
    expect(en.json.message).toBe(
      'IP access is restricted; contact the administrator to change security settings in the console.',
    );
    const zh = await alice.req('POST', SEARCH, {
      body: {},
      headers: { 'x-tenant-id': walled, 'x-forwarded-for': '8.8.8.8', 'accept-language': 'zh-CN' },
    });
    expect(zh.json.message).toBe('IP 访问受限，请联系管理员在控制台修改安全设置。');
    // The organisation itself is refused the same way; another organisation of the same user is not.
    expectRefused(
      await alice.req('GET', `/uiless/api/organizations/${walled}`, { headers: { 'x-forwarded-for': '8.8.8.8' } }),
      'OrganizationIpRestricted',
    );
    expect((await search('8.8.8.8', open)).status).toBe(200);
  });

  it('an IPv6 whitelist admits IPv6 clients inside it only', async () => {
    await policy({ ipWhitelist: ['2001:db8::/32'] });
    expect(await allowed('2001:db8::1')).toBe(true);
    expect(await allowed('2001:db8:ffff:ffff:ffff:ffff:ffff:ffff')).toBe(true);
    expect(await allowed('2001:db9::1')).toBe(false);
    expect(await allowed('10.0.0.1')).toBe(false);
  });

  it('CIDR edges: /0 per family, /32, /128 and IPv4-mapped IPv6 addresses and entries', async () => {
    await policy({ ipWhitelist: ['0.0.0.0/0'] });
    expect(await allowed('203.0.113.9')).toBe(true);
    expect(await allowed('2001:db8::1')).toBe(false);
    await policy({ ipWhitelist: ['::/0'] });
    expect(await allowed('2001:db8::1')).toBe(true);
    expect(await allowed('203.0.113.9')).toBe(false);
    await policy({ ipWhitelist: ['10.1.2.3/32'] });
    expect(await allowed('10.1.2.3')).toBe(true);
    expect(await allowed('10.1.2.4')).toBe(false);
    await policy({ ipWhitelist: ['2001:db8::1/128'] });
    expect(await allowed('2001:db8::1')).toBe(true);
    expect(await allowed('2001:db8::2')).toBe(false);
    // A dual-stack socket reports IPv4 clients as ::ffff:a.b.c.d; they are the IPv4 address they carry.
    await policy({ ipWhitelist: ['10.0.0.0/8'] });
    expect(await allowed('::ffff:10.1.2.3')).toBe(true);
    expect(await allowed('::ffff:11.1.2.3')).toBe(false);
    await policy({ ipWhitelist: ['::ffff:10.1.2.0/120'] });
    expect(await allowed('10.1.2.200')).toBe(true);
    expect(await allowed('::ffff:10.1.2.3')).toBe(true);
    expect(await allowed('10.1.3.1')).toBe(false);
  });

  it('only the proxy’s own entry counts: an address the client forged before it does not', async () => {
    await policy({ ipWhitelist: ['10.0.0.0/8'] });
    // The trusted proxy appends the real client (192.168.5.5) after whatever the client sent.
    expect(await allowed('10.1.2.3, 192.168.5.5')).toBe(false);
    expect(await allowed('192.168.5.5, 10.1.2.3')).toBe(true);
  });

  it('the licence expires after its last day (UTC), moving the clock; clearing it restores access', async () => {
    s.clock.set(Date.UTC(2026, 2, 10, 9));
    ({ alice } = await s.signIn('alice'));
    await setLicenceExpiry(s.ctx, 'Walled', '2026-03-10');
    expect((await search()).status).toBe(200);
    s.clock.set(Date.UTC(2026, 2, 10, 23, 59, 59, 999));
    ({ alice } = await s.signIn('alice'));
    expect((await search()).status).toBe(200);
    s.clock.advance(1);
    expectRefused(await search(), 'OrganizationLicenceExpired');
    expectRefused(await alice.req('GET', `/uiless/api/organizations/${walled}`), 'OrganizationLicenceExpired');
    const en = await alice.req('POST', SEARCH, {
      body: {},
      headers: { 'x-tenant-id': walled, 'accept-language': 'en' },
    });
    expect(en.json.message).toBe("The organization's license has expired; contact the administrator to renew it.");
    expect((await search(undefined, open)).status).toBe(200);
    await setLicenceExpiry(s.ctx, 'Walled', 'none');
    expect((await search()).status).toBe(200);
  });

  it('the standard-edition order expires the same way, with its own code', async () => {
    const now = s.clock.now().getTime();
    await policy({ orderExpiresAt: now + 10 * MIN });
    expect((await search()).status).toBe(200);
    s.clock.advance(10 * MIN);
    const a = await search();
    expectRefused(a, 'OrganizationOrderExpired');
    const zh = await alice.req('POST', SEARCH, {
      body: {},
      headers: { 'x-tenant-id': walled, 'accept-language': 'zh-CN' },
    });
    expect(zh.json.message).toBe('该企业的订单已过期，请在控制台续费后继续使用。');
    await setOrderExpiry(s.ctx, 'Walled', 'none');
    expect((await search()).status).toBe(200);
  });

  it('checks in order: whitelist, then licence, then order', async () => {
    const now = s.clock.now().getTime();
    await policy({ ipWhitelist: ['10.0.0.0/8'], licenceExpiresAt: now, orderExpiresAt: now });
    expectRefused(await search('8.8.8.8'), 'OrganizationIpRestricted');
    expectRefused(await search('10.0.0.1'), 'OrganizationLicenceExpired');
    await policy({ ipWhitelist: ['10.0.0.0/8'], orderExpiresAt: now });
    expectRefused(await search('10.0.0.1'), 'OrganizationOrderExpired');
  });

  it('with the current organisation (no x-tenant-id) the same policies apply', async () => {
    await policy({ ipWhitelist: ['10.0.0.0/8'] });
    expectRefused(await alice.req('POST', SEARCH, { body: {} }), 'OrganizationIpRestricted');
    const ok = await alice.req('POST', SEARCH, { body: {}, headers: { 'x-forwarded-for': '10.0.0.9' } });
    expect(ok.status).toBe(200);
  });

  it('personal calls (me, tokens, SSH keys, preferences) keep working under every policy', async () => {
    const now = s.clock.now().getTime();
    // Walled refuses everything: an address outside its list, licence and order expired. It is alice's current
    // organisation, and the web client sends it as x-tenant-id on /uiless/ calls.
    await policy({ ipWhitelist: ['10.0.0.0/8'], licenceExpiresAt: now, orderExpiresAt: now });
    const headers = { 'x-tenant-id': walled, 'x-forwarded-for': '8.8.8.8' };
    expectRefused(await alice.req('POST', SEARCH, { body: {}, headers }), 'OrganizationIpRestricted');

    const me = await alice.req('GET', '/individual/proxy/me?with_email_info=true', { headers });
    expect(me.status).toBe(200);
    expect(me.json.organization_id).toBe(walled);

    const created = await alice.req('POST', '/users/ajax/v1/my/tokens', {
      headers,
      body: {
        name: 'under policy',
        description: 'still mine',
        expires_at: new Date(now + 30 * 24 * 60 * MIN).toISOString(),
        token_scopes: ['base:user:read'],
      },
    });
    expect(created.status, created.text).toBe(200);
    const tokens = await alice.req('POST', '/users/ajax/v1/my/tokens:search', { headers, body: {} });
    expect(tokens.status).toBe(200);
    expect(tokens.json.access_tokens.map((t: { name: string }) => t.name)).toContain('under policy');

    for (const keys of ['/uiless/proxy/codeup/api/v3/user/keys', '/codeup/api/v3/user/keys']) {
      const k = await alice.req('GET', keys, { headers });
      expect(k.status, `${keys}: ${k.text}`).toBe(200);
      expect(k.json).toEqual([]);
    }

    const put = await alice.req('PUT', '/users/ajax/v1/my/preferences', { headers, body: { language: 'en_US' } });
    expect(put.status, put.text).toBe(200);
    expect((await alice.req('GET', '/users/ajax/v1/my/preferences', { headers })).json).toEqual({
      language: 'en_US',
    });
  });
});

describe('organisation IP whitelist without TRUST_PROXY', () => {
  const s = useTestServer({
    seed: {
      orgs: { Walled: { apps: ['codeup'], ipWhitelist: ['10.0.0.0/8'] } },
      users: { alice: { password: 'Secret#123', org: 'Walled' } },
      signIn: ['alice'],
    },
  });
  const search = (ip: string) =>
    s.clients.alice.req('POST', SEARCH, {
      body: {},
      headers: { 'x-tenant-id': s.orgs.Walled, 'x-forwarded-for': ip },
    });

  it('ignores X-Forwarded-For: the socket address is the client', async () => {
    expectRefused(await search('10.1.2.3'), 'OrganizationIpRestricted');
    await updateOrgPolicies(s.ctx.db, s.orgs.Walled, { ipWhitelist: ['127.0.0.1/32'] });
    expect((await search('8.8.8.8')).status).toBe(200);
    await updateOrgPolicies(s.ctx.db, s.orgs.Walled, { ipWhitelist: ['::/0'] });
    expectRefused(await search('2001:db8::1'), 'OrganizationIpRestricted');
    await updateOrgPolicies(s.ctx.db, s.orgs.Walled, { ipWhitelist: [] });
    expect((await search('8.8.8.8')).status).toBe(200);
  });
});
