import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Client, useTestServer } from '../kit/server';
import type { PageConfig } from '../../schemas/page-config';
import { bindIdentity } from '../../server/services/identities';

// The page carries what its first render needs (no call before it): catalogue, user, organisation, apps.
const FIXTURE = path.join(import.meta.dirname, '../fixtures/server/web-dist');
const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'account-bootstrap-dist-'));
fs.cpSync(FIXTURE, dist, { recursive: true });
fs.writeFileSync(path.join(dist, 'vpc/catalogue.zh_CN.json'), JSON.stringify({ 'core.hello': '你好' }));
fs.writeFileSync(path.join(dist, 'vpc/catalogue.en_US.json'), JSON.stringify({ 'core.hello': 'Hello' }));

const PASSWORD = 'Secret#123';
const TOKENS = '/users/ajax/v1/my/tokens';

/** Creates a 30-day token for `c` (which also puts a message in its inbox). */
async function makeToken(c: Client, name: string, now: Date) {
  const made = await c.req('POST', TOKENS, {
    body: {
      name,
      description: 'bootstrap test',
      expires_at: new Date(now.getTime() + 30 * 86_400_000).toISOString(),
      token_scopes: ['base:user:read'],
    },
  });
  expect(made.status, made.text).toBeLessThan(300);
}

async function pageConfig(c: Client, url = '/users/settings/profile', headers: Record<string, string> = {}) {
  const page = await c.req('GET', url, { headers });
  expect(page.status).toBe(200);
  const m = /<script[^>]*id="page-config"[^>]*>([\s\S]*?)<\/script>/.exec(page.text);
  return JSON.parse(m![1]) as PageConfig;
}

describe('page bootstrap', () => {
  const s = useTestServer({
    env: { DIST_DIR: dist },
    seed: {
      orgs: {
        Acme: ['codeup', 'packages'],
        Walled: { apps: ['codeup'], ipWhitelist: ['10.0.0.0/8'] },
      },
      users: {
        alice: { password: PASSWORD, org: 'Acme', email: 'alice@example.com' },
        walt: { password: PASSWORD, org: 'Walled' },
        nora: { password: PASSWORD },
      },
      signIn: ['alice', 'walt', 'nora'],
    },
  });
  afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));

  it('a signed-in page has the user, the organisation, its apps and the catalogue of the edition default', async () => {
    const boot = (await pageConfig(s.clients.alice)).bootstrap!;
    expect(boot.locale).toBe('zh_CN');
    expect(boot.messages).toEqual({ 'core.hello': '你好' });
    expect(boot.me).toMatchObject({ username: 'alice', email: 'alice@example.com', organization_id: s.orgs.Acme });
    expect(boot.organization).toEqual({ id: s.orgs.Acme, name: 'Acme', logo: null });
    expect(boot.apps?.map((a) => a.identity)).toEqual(['codeup', 'packages']);
    expect(boot.organizationError).toBeNull();
    // The same as the calls it replaces.
    const me = await s.clients.alice.req('GET', '/individual/proxy/me');
    expect(boot.me).toEqual(me.json);
    const apps = await s.clients.alice.req('POST', '/uiless/api/apps:search', { body: {} });
    expect(boot.apps).toEqual(apps.json.results);
  });

  it('follows the locale cookie, not Accept-Language (the app’s own rule)', async () => {
    const c = s.clients.alice;
    expect((await pageConfig(c, '/users/settings/profile', { 'accept-language': 'en-US' })).bootstrap!.locale).toBe(
      'zh_CN',
    );
    const en = await pageConfig(new Client(s.url), '/users/login', { cookie: 'ak_user_locale=en_US' });
    expect(en.bootstrap).toEqual({ locale: 'en_US', messages: { 'core.hello': 'Hello' } });
  });

  it('an organisation that refuses the request is named by its code, with no apps', async () => {
    const boot = (await pageConfig(s.clients.walt)).bootstrap!;
    expect(boot).toMatchObject({ organization: null, apps: null, organizationError: 'OrganizationIpRestricted' });
    expect(boot.me?.username).toBe('walt');
  });

  it("carries the plugins' first-render data, equal to the calls it spares: the bell's counts, the profile's attributes, the token and SSH lists", async () => {
    const c = s.clients.alice;
    // A token makes an inbox message, so the counts are not all zero.
    await makeToken(c, 'boot', s.clock.now());
    const profile = (await pageConfig(c, '/users/settings/profile')).bootstrap!.plugins!;
    const counts = await c.req('POST', '/users/ajax/v1/notifications/inbox/messages/unread:countGroupByApp', {
      body: {},
    });
    expect((counts.json as { unread: number }).unread).toBeGreaterThan(0);
    expect(profile.notifications).toEqual({ counts: counts.json });
    const attributes = await c.req('GET', '/users/ajax/v1/my/attributes:bind');
    expect(profile.profile).toEqual({ attributes: attributes.json });
    expect(profile['ssh-keys']).toBeUndefined();
    expect(profile['access-tokens']).toBeUndefined();
    // The token page brings the list's first page, as the page asks it before the person picks a size.
    const tokens = (await pageConfig(c, '/users/settings/personalAccessToken')).bootstrap!.plugins!;
    const search = await c.req('POST', `${TOKENS}:search`, {
      body: { include_expired: true, pagination: { current_page: 1, page_size: 20 } },
    });
    expect((search.json as { access_tokens: unknown[] }).access_tokens).toHaveLength(1);
    expect(tokens['access-tokens']).toEqual({ page: search.json });
    expect(JSON.stringify(tokens)).not.toContain('"token":');
    // Another page has the counts (the bell is on every page) and its own data, not the profile page's.
    const keyFile = path.join(dist, 'boot-key');
    execFileSync('ssh-keygen', ['-q', '-N', '', '-t', 'ed25519', '-C', 'boot@test', '-f', keyFile]);
    const added = await c.req('POST', '/uiless/proxy/codeup/api/v3/user/keys', {
      // A name that would end the config's script element if the page embedded it raw.
      body: { name: '</script><img src=x onerror=alert(1)>', key: fs.readFileSync(`${keyFile}.pub`, 'utf8').trim() },
    });
    expect(added.status, added.text).toBeLessThan(300);
    const ssh = (await pageConfig(c, '/users/settings/ssh')).bootstrap!.plugins!;
    expect(ssh.notifications).toMatchObject({ counts: { total: expect.any(Number) } });
    expect(ssh.profile).toBeUndefined();
    const keys = await c.req('GET', '/uiless/proxy/codeup/api/v3/user/keys');
    expect((keys.json as unknown[]).length).toBe(1);
    expect(ssh['ssh-keys']).toEqual({ keys: keys.json });
    const html = (await c.req('GET', '/users/settings/ssh')).text;
    expect(html).not.toContain('</script><img');
    expect(html).toContain('\\u003c/script\\u003e\\u003cimg');
    // A page without a session has none.
    expect((await pageConfig(new Client(s.url), '/users/login')).bootstrap!.plugins).toBeUndefined();
  });

  it('the artifact-credential page brings the account where packages is installed, none elsewhere', async () => {
    const page = '/users/settings/packagesCredential';
    const brought = (await pageConfig(s.clients.alice, page)).bootstrap!.plugins!;
    const info = await s.clients.alice.req('GET', '/uiless/proxy/package/api/external/users/userInfo');
    expect(info.json).toMatchObject({ username: 'alice' });
    expect(brought['packages-credential']).toEqual({ info: info.json });
    // Walled has no packages (and refuses the address), nora has no organisation: the page asks and is refused.
    for (const c of [s.clients.walt, s.clients.nora]) {
      expect((await pageConfig(c, page)).bootstrap!.plugins!['packages-credential']).toBeUndefined();
      expect((await c.req('GET', '/uiless/proxy/package/api/external/users/userInfo')).status).toBe(403);
    }
    expect((await pageConfig(s.clients.alice)).bootstrap!.plugins!['packages-credential']).toBeUndefined();
  });

  it('the third-party page brings the bindings, equal to the identities call; other pages do not', async () => {
    await bindIdentity(s.ctx, { username: 'alice', provider: 'dingtalk', openId: 'ding-alice' });
    const page = '/users/settings/third-party';
    const brought = (await pageConfig(s.clients.alice, page)).bootstrap!.plugins!;
    const identities = await s.clients.alice.req('GET', '/individual/proxy/my/identities');
    expect(identities.json).toMatchObject({ results: [{ credential: 'dingtalk', open_id: 'ding-alice' }] });
    expect(brought['third-party']).toEqual({ identities: identities.json });
    // Only the signed-in user's own: nora has none.
    expect((await pageConfig(s.clients.nora, page)).bootstrap!.plugins!['third-party']).toEqual({
      identities: { results: [] },
    });
    expect((await pageConfig(s.clients.alice)).bootstrap!.plugins!['third-party']).toBeUndefined();
  });

  it("the organisation chooser brings the list's first page, equal to the call the chooser makes", async () => {
    const page = '/users/switch/organization';
    for (const [name, c] of Object.entries(s.clients)) {
      const brought = (await pageConfig(c, page)).bootstrap!.plugins!['switch-org'];
      const me = (await c.req('GET', '/individual/proxy/me')).json as { id: string };
      const list = await c.req('POST', '/individual/proxy/my/organizations', {
        body: { user_id: me.id, pagination: { next_token: null, page_size: 50 } },
      });
      expect(list.status, name).toBe(200);
      expect(brought, name).toEqual({ organizations: list.json });
    }
    // Walled refuses this address, but the chooser is the way out of it: its list comes all the same.
    expect((await pageConfig(s.clients.walt, page)).bootstrap!.plugins!['switch-org']).toMatchObject({
      organizations: { organizations: [{ name: 'Walled' }] },
    });
    expect((await pageConfig(s.clients.alice)).bootstrap!.plugins!['switch-org']).toBeUndefined();
  });

  it("the message center brings its list's first page in the page's language, equal to the call it spares", async () => {
    const c = s.clients.alice;
    const page = '/users/notifications';
    // A token makes an inbox message (titled in the reader's language).
    await makeToken(c, 'inbox', s.clock.now());
    const titles: string[] = [];
    try {
      for (const locale of ['zh_CN', 'en_US']) {
        // The language the person chose (its cookie): the page's, and the calls'.
        c.cookies.set('ak_user_locale', locale);
        const boot = (await pageConfig(c, page)).bootstrap!;
        expect(boot.locale).toBe(locale);
        const answer = await c.req('POST', '/users/ajax/v1/notifications/inbox/messages:list', {
          body: { tab: 'all', page_size: 20 },
        });
        const messages = (answer.json as { messages: { title: string }[] }).messages;
        expect(messages.length).toBeGreaterThan(0);
        expect(boot.plugins!.notifications).toMatchObject({ page: answer.json, counts: { total: expect.any(Number) } });
        titles.push(messages[0].title);
      }
    } finally {
      c.cookies.delete('ak_user_locale');
    }
    expect(titles[0]).not.toBe(titles[1]);
    // The same page with a trailing slash brings it too.
    expect((await pageConfig(c, `${page}/`)).bootstrap!.plugins!.notifications).toHaveProperty('page');
    // Other pages bring the bell's counts only.
    expect(Object.keys((await pageConfig(c)).bootstrap!.plugins!.notifications as object)).toEqual(['counts']);
  });

  it('a user in no organisation, and a page without a session, carry no organisation', async () => {
    expect((await pageConfig(s.clients.nora)).bootstrap).toMatchObject({
      organization: null,
      apps: [],
      organizationError: null,
    });
    const anon = (await pageConfig(new Client(s.url), '/users/login')).bootstrap!;
    expect(anon.me).toBeUndefined();
    expect(anon.organization).toBeUndefined();
  });
});
