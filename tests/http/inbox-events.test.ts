import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, INBOX, adminOn, useTestServer, type TestServer, uploadAvatar } from '../kit/server';
import { clientFrom, freshAddress, solveSlider, solveSliders } from '../kit/captcha';
import { startSmtpSink, type SmtpSink } from '../kit/smtp';
import { expectNoSecrets } from '../kit/secrets';
import type { InboxMessage } from '../../plugins/notifications/contract';

// The messages the product produces itself, each caused by the real HTTP call (or admin command) a person makes,
// and read back through the inbox as the recipient's client sees it. Runs on SQLite and PostgreSQL.

const DAY = 24 * 60 * 60 * 1000;
const PASSWORD = 'Secret#123';
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

/** A message of the inbox as a client reads it (the contract's shape). */
type Msg = InboxMessage;

/** Every message of a client's inbox in English, newest first; `type` keeps only those of one type. */
async function inbox(c: Client, type?: string, locale = 'en-US'): Promise<Msg[]> {
  const a = await c.req('POST', `${INBOX}:list`, { body: { page_size: 100 }, headers: { 'accept-language': locale } });
  expect(a.status, a.text).toBe(200);
  const msgs: Msg[] = a.json.messages;
  return type ? msgs.filter((m) => m.type === type) : msgs;
}

const upload = uploadAvatar;

describe('inbox producers', () => {
  let sink: SmtpSink;
  let keyDir: string;
  beforeAll(async () => {
    sink = await startSmtpSink();
    keyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-keys-'));
  });
  afterAll(async () => {
    await sink.close();
    fs.rmSync(keyDir, { recursive: true, force: true });
  });
  const users = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi'];
  const s: TestServer = useTestServer(() => ({
    env: { SMTP_URL: sink.url, TRUST_PROXY: 'loopback' },
    seed: {
      orgs: {
        Acme: { apps: ['codeup', 'packages'], admins: ['heidi'] },
        Other: { apps: ['codeup'], members: ['carol'], admins: ['grace'] },
      },
      users: Object.fromEntries(users.map((u) => [u, { password: PASSWORD, org: u === 'grace' ? 'Other' : 'Acme' }])),
      signIn: ['alice', 'bob', 'carol', 'erin', 'grace', 'heidi'],
    },
  }));
  const secrets: string[] = [];

  afterAll(() => {
    // Nothing any test used as a secret (token values, passwords, session cookies) reached the service's logs.
    expectNoSecrets(s.logs, secrets);
  });

  it('token created: a security message of the account app, naming the token, linking to the tokens page, no secret', async () => {
    const { alice } = s.clients;
    secrets.push(alice.cookieHeader(), alice.csrf!);
    const expiresAt = new Date(s.clock.now().getTime() + 30 * DAY);
    const created = await alice.req('POST', '/users/ajax/v1/my/tokens', {
      body: {
        name: 'deploy-bot',
        description: 'release pipeline',
        expires_at: expiresAt.toISOString(),
        token_scopes: ['base:user:read'],
      },
    });
    expect(created.status, created.text).toBe(200);
    const token: string = created.json.token;
    secrets.push(token);
    const [m, ...more] = await inbox(alice, 'token.created');
    expect(more).toEqual([]);
    expect(m).toMatchObject({
      app: 'account',
      sensitive: true,
      read: false,
      link: '/users/settings/personalAccessToken',
      title: 'Personal access token created',
      created_at: s.clock.now().toISOString(),
    });
    expect(m.body).toContain('"deploy-bot"');
    expect(m.body).toContain(expiresAt.toISOString().slice(0, 10));
    const zh = (await inbox(alice, 'token.created', 'zh-CN'))[0];
    expect(zh.title).toBe('已创建个人访问令牌');
    expect(zh.body).toContain('“deploy-bot”');
    // The token's value is nowhere: not in the list (either language), not in the stored row.
    const secretPart = token.slice(-20);
    for (const locale of ['en-US', 'zh-CN']) {
      const raw = await alice.req('POST', `${INBOX}:list`, { body: {}, headers: { 'accept-language': locale } });
      expect(raw.text).not.toContain(secretPart);
    }
    const rows = await s.ctx.db
      .selectFrom('inbox_messages')
      .selectAll()
      .where('user_id', '=', s.users.alice.id)
      .execute();
    expect(JSON.stringify(rows)).not.toContain(secretPart);
    // Nobody else heard of it.
    expect(await inbox(s.clients.bob, 'token.created')).toEqual([]);
  });

  it('SSH key added: a security message with the key’s name and fingerprint', async () => {
    const { bob } = s.clients;
    const file = path.join(keyDir, 'bob');
    execFileSync('ssh-keygen', ['-q', '-N', '', '-t', 'ed25519', '-C', 'bob@laptop', '-f', file]);
    const pub = fs.readFileSync(`${file}.pub`, 'utf8');
    const fingerprint = execFileSync('ssh-keygen', ['-lf', `${file}.pub`], { encoding: 'utf8' }).split(' ')[1];
    const added = await bob.req('POST', '/uiless/proxy/codeup/api/v3/user/keys', {
      body: { name: 'laptop', key: pub },
    });
    expect(added.status, added.text).toBe(201);
    const [m, ...more] = await inbox(bob, 'ssh-key.added');
    expect(more).toEqual([]);
    expect(m).toMatchObject({ app: 'account', sensitive: true, link: '/users/settings/ssh', title: 'SSH key added' });
    expect(m.body).toContain('"laptop"');
    expect(m.body).toContain(fingerprint);
    // The private key is not in the message (only its public fingerprint).
    expect(m.body).not.toContain(pub.split(' ')[1]);
    // A refused key (the same one again) adds no message.
    expect(
      (await bob.req('POST', '/uiless/proxy/codeup/api/v3/user/keys', { body: { name: 'x', key: pub } })).status,
    ).toBe(409);
    expect(await inbox(bob, 'ssh-key.added')).toHaveLength(1);
  });

  it('artifact repository password reset: a security message of the packages app, without the password', async () => {
    const { alice } = s.clients;
    const reset = await alice.req('POST', '/uiless/proxy/package/api/external/users/user/password');
    expect(reset.status, reset.text).toBe(200);
    const password: string = reset.json.password;
    secrets.push(password);
    const [m, ...more] = await inbox(alice, 'packages.password-reset');
    expect(more).toEqual([]);
    expect(m).toMatchObject({
      app: 'packages',
      sensitive: true,
      link: '/users/settings/packagesCredential',
      title: 'Artifact repository password reset',
    });
    expect(JSON.stringify(await inbox(alice))).not.toContain(password);
    // The app filter finds it; a refused reset (no packages app in carol's organisation) adds nothing.
    const filtered = await alice.req('POST', `${INBOX}:list`, { body: { app: 'packages' } });
    expect(filtered.json.messages.map((x: Msg) => x.id)).toEqual([m.id]);
    const carol = s.clients.carol;
    const refused = await carol.req('POST', '/uiless/proxy/package/api/external/users/user/password', {
      headers: { 'x-tenant-id': s.orgs.Other },
    });
    expect(refused.status).toBe(403);
    expect(await inbox(carol, 'packages.password-reset')).toEqual([]);
  });

  it('password changed in the settings: one security message; a refused change adds none', async () => {
    const c = new Client(s.url);
    expect((await c.login('dave', PASSWORD)).status).toBe(200);
    const wrong = await c.req('PUT', '/users/ajax/v1/my/password', {
      body: { new_password: 'Brand#New9', old_password: 'Nope#1234' },
    });
    expect(wrong.json.code).toBe('OldPasswordIncorrect');
    expect(await inbox(c, 'password.changed')).toEqual([]);
    const ok = await c.req('PUT', '/users/ajax/v1/my/password', {
      body: { new_password: 'Brand#New9', old_password: PASSWORD },
    });
    expect(ok.status, ok.text).toBe(200);
    secrets.push('Brand#New9');
    const [m, ...more] = await inbox(c, 'password.changed');
    expect(more).toEqual([]);
    expect(m).toMatchObject({
      app: 'account',
      sensitive: true,
      title: 'Password changed',
      link: '/users/settings/profile',
    });
    expect(m.body).not.toContain('Brand#New9');
  });

  it('password changed through recovery: one security message saying so', async () => {
    await s.seed({ users: { rita: { password: PASSWORD, email: 'rita@example.com' } } });
    const base = '/users/ajax/users/rita';
    const c = clientFrom(s.url, freshAddress(), { 'accept-language': 'en-US' });
    const flow = await c.req('POST', `${base}/password:retrieve`, {
      body: { captcha_pass: await solveSlider(s.ctx, c, 'rita') },
    });
    expect(flow.status, flow.text).toBe(200);
    const since = sink.mails.length;
    expect((await c.req('POST', `${base}/emailCaptcha`, { body: { flow: flow.json.flow } })).status).toBe(200);
    const mail = await sink.waitFor('rita@example.com');
    expect(sink.mails.length).toBeGreaterThan(since);
    const code = /(?<![0-9])([0-9]{6})(?![0-9])/.exec(mail.text)![1];
    const ticket = await c.req('POST', `${base}/emailCaptcha:verify`, { body: { flow: flow.json.flow, code } });
    expect(ticket.status, ticket.text).toBe(200);
    const reset = await c.req('PUT', `${base}/password:reset`, {
      body: { ticket: ticket.json.ticket, new_password: 'Recovered#77' },
    });
    expect(reset.status, reset.text).toBe(200);
    secrets.push(code, ticket.json.ticket, flow.json.flow, 'Recovered#77');
    const rita = new Client(s.url);
    expect((await rita.login('rita', 'Recovered#77')).status).toBe(200);
    const [m, ...more] = await inbox(rita, 'password.changed');
    expect(more).toEqual([]);
    expect(m).toMatchObject({ app: 'account', sensitive: true, title: 'Password changed' });
    expect(m.body).toContain('through password recovery');
    expect(JSON.stringify(m)).not.toContain(code);
  });

  it('e-mail bound, changed and unbound: one security message each, naming the address', async () => {
    let { erin } = s.clients;
    const bind = await erin.req('POST', '/users/ajax/v1/my/emails:bind', {
      body: { email: 'erin@example.com' },
    });
    expect(bind.status, bind.text).toBe(200);
    // A resend to the same address a minute later is not news.
    s.clock.advance(61_000);
    ({ erin } = await s.signIn('erin'));
    expect(
      (await erin.req('POST', '/users/ajax/v1/my/emails:bind', { body: { email: 'erin@example.com' } })).status,
    ).toBe(200);
    s.clock.advance(61_000);
    const rebind = await erin.req('POST', '/users/ajax/v1/my/emails:rebind', {
      body: { email: 'erin2@example.com' },
    });
    expect(rebind.status, rebind.text).toBe(200);
    s.clock.advance(1000);
    const unbind = await erin.req('POST', '/individual/proxy/my/email:unbind', {
      body: { email: 'erin2@example.com' },
    });
    expect(unbind.status, unbind.text).toBe(200);
    const msgs = (await inbox(erin)).filter((m) => m.type.startsWith('email.'));
    expect(msgs.map((m) => [m.type, m.sensitive, m.app])).toEqual([
      ['email.unbound', true, 'account'],
      ['email.changed', true, 'account'],
      ['email.bound', true, 'account'],
    ]);
    expect(msgs[2].body).toContain('erin@example.com');
    expect(msgs[1].body).toContain('erin2@example.com');
    expect(msgs[0].body).toContain('erin2@example.com');
    expect(msgs.map((m) => m.title)).toEqual(['Email removed', 'Email changed', 'Email added']);
    // The activation links mailed out are not in the inbox.
    for (const mail of sink.mails) for (const link of mail.links) expect(JSON.stringify(msgs)).not.toContain(link);
    secrets.push(...sink.mails.flatMap((m) => m.links.map((l) => new URL(l).searchParams.get('token') ?? '')));
  });

  it('avatar changed: one message (not a security one); setting the same picture again adds none', async () => {
    const { bob } = s.clients;
    const png = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#36c' } })
      .png()
      .toBuffer();
    const up = await upload(bob, png, 'me.png');
    expect(up.status, up.text).toBe(200);
    const set = await bob.req('PUT', '/individual/proxy/my/avatar', { body: { avatar: up.json.url } });
    expect(set.status, set.text).toBe(200);
    await bob.req('PUT', '/individual/proxy/my/avatar', { body: { avatar: up.json.url } });
    const msgs = await inbox(bob, 'avatar.changed');
    expect(msgs).toHaveLength(1);
    expect(msgs[0]).toMatchObject({
      app: 'account',
      sensitive: false,
      title: 'Avatar changed',
      link: '/users/settings/profile',
    });
  });

  it('the 5th wrong password locks; the owner gets exactly one message even with 20 parallel wrong attempts', async () => {
    const passes = await solveSliders(s.ctx, s.url, 'frank', 20);
    const addresses = Array.from({ length: 20 }, () => freshAddress());
    const answers = await Promise.all(
      addresses.map((ip, i) =>
        clientFrom(s.url, ip).req('POST', '/users/ajax/login', {
          body: { username: 'frank', password: 'Wrong#999', captcha_pass: passes[i] },
        }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((x) => x === 401).length, statuses.join(',')).toBe(4);
    expect(statuses.filter((x) => x === 423).length, statuses.join(',')).toBe(16);
    // Sign in once the lock has passed, to read the inbox (from an address not yet seen: no other assertion needs it).
    s.clock.advance(60 * 60 * 1000 + 1);
    const frank = clientFrom(s.url, addresses[0], { 'user-agent': CHROME });
    expect((await frank.login('frank', PASSWORD)).status).toBe(200);
    const locked = await inbox(frank, 'account.locked');
    expect(locked).toHaveLength(1);
    expect(locked[0]).toMatchObject({ app: 'account', sensitive: true, title: 'Sign-in from unknown browsers locked' });
    expect(addresses.some((ip) => locked[0].body.includes(`last from ${ip})`))).toBe(true);
    // Nobody else heard of it.
    const { alice } = await s.signIn('alice');
    expect(await inbox(alice, 'account.locked')).toEqual([]);
  });

  it('sign-in from a new address or a new browser: a message; the first sign-in and known ones: none', async () => {
    const [home, office] = [freshAddress(), freshAddress()];
    const made = await s.seed({ users: { ivan: { password: PASSWORD, org: 'Acme' } } });
    expect(made.users.ivan).toBeDefined();
    const as = async (ip: string, ua: string) => {
      s.clock.advance(1000);
      const c = clientFrom(s.url, ip, { 'user-agent': ua });
      const a = await c.login('ivan', PASSWORD);
      expect(a.status, a.text).toBe(200);
      return c;
    };
    const first = await as(home, CHROME);
    expect(await inbox(first, 'sign-in.new-device')).toEqual([]);
    await as(home, CHROME);
    expect(await inbox(first, 'sign-in.new-device')).toEqual([]);
    // Same browser, new address.
    await as(office, CHROME);
    let news = await inbox(first, 'sign-in.new-device');
    expect(news).toHaveLength(1);
    expect(news[0]).toMatchObject({ app: 'account', sensitive: true, title: 'New sign-in to your account' });
    expect(news[0].body).toContain(office);
    expect(news[0].body).toContain('Chrome 131 on Windows');
    // Known address, new browser.
    await as(home, FIREFOX);
    news = await inbox(first, 'sign-in.new-device');
    expect(news).toHaveLength(2);
    expect(news[0].body).toContain(home);
    expect(news[0].body).toContain('Firefox 133 on Linux');
    // Both known now (even combined differently); a newer version of a known browser is the same browser.
    await as(office, FIREFOX);
    await as(home, CHROME.replace('Chrome/131', 'Chrome/132'));
    expect(await inbox(first, 'sign-in.new-device')).toHaveLength(2);
    // A failed sign-in from a new address tells nothing.
    const stranger = clientFrom(s.url, freshAddress(), { 'user-agent': 'curl/8.0' });
    expect((await stranger.login('ivan', 'Wrong#999')).status).toBe(401);
    expect(await inbox(first, 'sign-in.new-device')).toHaveLength(2);
  });

  it('a sign-in with a browser nobody can name says "an unknown browser" in either language', async () => {
    await s.seed({ users: { kate: { password: PASSWORD } } });
    await clientFrom(s.url, freshAddress(), { 'user-agent': CHROME }).login('kate', PASSWORD);
    s.clock.advance(1000);
    const c = clientFrom(s.url, freshAddress(), { 'user-agent': 'curl/8.0' });
    expect((await c.login('kate', PASSWORD)).status).toBe(200);
    const [en] = await inbox(c, 'sign-in.new-device');
    expect(en.body).toContain(' with an unknown browser, which');
    const [zh] = await inbox(c, 'sign-in.new-device', 'zh-CN');
    expect(zh.body).toContain('通过 未知浏览器 登录');
  });

  // The browser's parts are kept apart and rendered in the reader's language.
  it('the Chinese new-sign-in message names the browser in Chinese', async () => {
    await s.seed({ users: { judy: { password: PASSWORD } } });
    await clientFrom(s.url, freshAddress(), { 'user-agent': FIREFOX }).login('judy', PASSWORD);
    s.clock.advance(1000);
    const c = clientFrom(s.url, freshAddress(), { 'user-agent': CHROME });
    expect((await c.login('judy', PASSWORD)).status).toBe(200);
    const [m] = await inbox(c, 'sign-in.new-device', 'zh-CN');
    expect(m.title).toBe('账号有新的登录');
    expect(m.body).not.toMatch(/ on [A-Z]/);
  });

  it('send-notice --org reaches every member of that organisation only; an empty title is refused by name', async () => {
    const empty = await adminOn(s, 'send-notice', '--org', 'Acme', '--title', '', '--body', 'Body');
    expect(empty.code).not.toBe(0);
    expect(empty.err).toContain('--title');
    const blank = await adminOn(s, 'send-notice', '--org', 'Acme', '--title', '   ', '--body', 'Body');
    expect(blank.code).toBe(1);
    expect(blank.err).toContain('--title');
    const noBody = await adminOn(s, 'send-notice', '--org', 'Acme', '--title', 'T', '--body', ' ');
    expect(noBody.code).toBe(1);
    expect(noBody.err).toContain('--body');
    const bell = await adminOn(s, 'send-notice', '--org', 'Acme', '--title', 'Ding\u0007', '--body', 'B');
    expect(bell.code).toBe(1);
    expect(bell.err).toContain('control characters');
    const nowhere = await adminOn(s, 'send-notice', '--org', 'Nowhere', '--title', 'T', '--body', 'B');
    expect(nowhere.code).toBe(1);
    expect(nowhere.err).toContain('Nowhere');

    const sent = await adminOn(
      s,
      'send-notice',
      '--org',
      'Acme',
      '--title',
      'Planned maintenance',
      '--body',
      'Code hosting is read-only on Saturday 02:00–04:00 UTC.',
    );
    expect(sent.code, sent.err).toBe(0);
    const acme = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'heidi', 'ivan'];
    expect(sent.out).toContain(`${acme.length} member(s)`);
    const clients = await s.signIn(...acme.filter((u) => u !== 'dave'), 'grace');
    clients.dave = new Client(s.url);
    expect((await clients.dave.login('dave', 'Brand#New9')).status).toBe(200);
    for (const u of acme) {
      const notices = await inbox(clients[u], 'org.notice');
      expect([u, notices.length]).toEqual([u, 1]);
      expect(notices[0]).toMatchObject({
        app: 'organization',
        sensitive: false,
        link: null,
        title: 'Planned maintenance',
        body: 'Code hosting is read-only on Saturday 02:00–04:00 UTC.',
      });
      // An administrator's words stay as written in either language.
      expect((await inbox(clients[u], 'org.notice', 'zh-CN'))[0].title).toBe('Planned maintenance');
    }
    // Grace is only in Other.
    expect(await inbox(clients.grace, 'org.notice')).toEqual([]);
  });

  it('set-ip-whitelist reaches the organisation’s admins only', async () => {
    const set = await adminOn(s, 'set-ip-whitelist', '--org', 'Acme', '--cidrs', '10.0.0.0/8,2001:db8::/32');
    expect(set.code, set.err).toBe(0);
    const cleared = await adminOn(s, 'set-ip-whitelist', '--org', 'Acme', '--cidrs', '');
    expect(cleared.code, cleared.err).toBe(0);
    const clients = await s.signIn('heidi', 'alice', 'grace');
    const msgs = await inbox(clients.heidi, 'org.ip-whitelist-changed');
    expect(msgs.map((m) => [m.app, m.sensitive, m.title])).toEqual([
      ['organization', true, 'IP whitelist changed'],
      ['organization', true, 'IP whitelist changed'],
    ]);
    expect(msgs.map((m) => m.body).sort()).toEqual([
      'The IP whitelist of Acme now admits only 10.0.0.0/8, 2001:db8::/32.',
      'The IP whitelist of Acme was cleared; requests are accepted from any address.',
    ]);
    expect(await inbox(clients.alice, 'org.ip-whitelist-changed')).toEqual([]);
    // Grace administers Other, not Acme.
    expect(await inbox(clients.grace, 'org.ip-whitelist-changed')).toEqual([]);
    // A refused command (bad CIDR) tells nobody.
    const bad = await adminOn(s, 'set-ip-whitelist', '--org', 'Acme', '--cidrs', '10.0.0.0/33');
    expect(bad.code).not.toBe(0);
    expect(await inbox(clients.heidi, 'org.ip-whitelist-changed')).toHaveLength(2);
  });
});
