// E-mail changes of directory accounts (issue 38, item 3): an account that signs in through LDAP / Windows AD proves
// the change with its directory password, judged by the directory (a real slapd), under the sign-in lockout; a
// directory that cannot be reached answers 503 and counts nothing. Local-password and code accounts: email-change.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { INBOX, useTestServer, type Client } from '../kit/server';
import { clientFrom } from '../kit/captcha';
import { startSmtpSink, type SmtpSink } from '../kit/smtp';
import { startSlapd, type TestDirectory } from '../kit/slapd';
import { setDirectory } from '../../plugins/login/server/directory';

const REBIND = '/users/ajax/v1/my/emails:rebind';
const UNBIND = '/individual/proxy/my/email:unbind';
const CODE = '/users/ajax/v1/my/emails:code';
const ATTRIBUTES = '/users/ajax/v1/my/attributes:bind';
const PASSWORD = '/users/ajax/v1/my/password';

describe('e-mail change of a directory account', () => {
  let sink: SmtpSink;
  let d: TestDirectory;
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(() => sink.close());
  const s = useTestServer(() => ({
    env: { SMTP_URL: sink.url, TRUST_PROXY: 'loopback' },
    seed: { users: { alice: { password: 'Secret#123', email: 'alice@example.com' } } },
  }));

  beforeAll(async () => {
    d = await startSlapd();
    const ldapSecret = path.join(s.dataDir, 'ldap-bind-password');
    const adSecret = path.join(s.dataDir, 'ad-bind-password');
    fs.writeFileSync(ldapSecret, d.ldap.bindPassword, { mode: 0o600 });
    fs.writeFileSync(adSecret, d.ad.bindPassword, { mode: 0o600 });
    const deps = { db: s.ctx.db, clock: s.clock };
    await setDirectory(deps, {
      kind: 'ldap',
      url: d.url,
      bindDn: d.ldap.bindDn,
      bindSecretRef: `file:${ldapSecret}`,
      baseDn: d.ldap.baseDn,
      userFilter: d.ldap.userFilter,
      loginAttr: d.ldap.loginAttr,
      nameAttr: d.ldap.nameAttr,
      emailAttr: d.ldap.emailAttr,
      displayName: 'Example LDAP',
    });
    await setDirectory(deps, {
      kind: 'ad',
      url: d.url,
      bindDn: d.ad.bindDn,
      bindSecretRef: `file:${adSecret}`,
      baseDn: d.ad.baseDn,
    });
  });
  afterAll(async () => {
    await d?.close();
  });

  beforeEach(() => {
    sink.mails.length = 0;
    // A fresh hour for the mail throttles and the activation-mail limit per address.
    s.clock.advance(3_600_000);
  });

  /** Signs a directory person in from an address of its own (the first sign-in makes the linked account). */
  async function directorySession(method: 'ldap' | 'ad', login: string, password: string): Promise<Client> {
    const client = clientFrom(s.url);
    const a = await client.req('POST', '/users/ajax/login', { body: { username: login, password, method } });
    expect(a.status, a.text).toBe(200);
    client.csrf = a.json.csrf_token;
    return client;
  }

  /** Binds slapd saw as `dn`, with their result codes (0 = accepted, 49 = wrong password). */
  const bindsAs = (dn: string) =>
    d
      .binds()
      .filter((b) => b.dn.toLowerCase() === dn.toLowerCase())
      .map((b) => b.err);

  const failures = async (username: string) => (await s.ctx.lockout.state(username)).failures;

  it('proves with the directory password: the page is told the directory, the old address gets the notice', async () => {
    const lin = await directorySession('ldap', 'lin', d.ldap.users.lin.password);
    const attrs = await lin.req('GET', ATTRIBUTES);
    expect(attrs.json).toEqual({
      has_password: false,
      directory: 'Example LDAP',
      email: 'lin@example.org',
      email_verified: true,
    });
    // No password: refused, and no code instead (that is for accounts with neither).
    const bare = await lin.req('POST', REBIND, { body: { email: 'lin.new@example.net' } });
    expect([bare.status, bare.json.code]).toEqual([400, 'ProfileEmailDirectoryPasswordRequired']);
    const code = await lin.req('POST', CODE);
    expect([code.status, code.json.code]).toEqual([400, 'ProfileEmailBindingStatusWrong']);
    expect(sink.mails).toHaveLength(0);

    const before = bindsAs(d.ldap.users.lin.dn).length;
    const ok = await lin.req('POST', REBIND, {
      body: { email: 'lin.new@example.net', password: d.ldap.users.lin.password },
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json).toMatchObject({ email: 'lin.new@example.net', email_verified: false });
    // The directory judged it: one more accepted bind as lin.
    expect(bindsAs(d.ldap.users.lin.dn).slice(before)).toEqual([0]);
    const [notice] = await Promise.all([sink.waitFor('lin@example.org'), sink.waitFor('lin.new@example.net')]);
    expect(notice.text).toContain('l***@example.net');
    expect(notice.text).not.toContain('lin.new@example.net');
    expect(notice.links).toEqual([]);
    const list = await lin.req('POST', `${INBOX}:list`, { body: { page_size: 100 } });
    expect((list.json.messages as { type: string }[]).map((m) => m.type)).toContain('email.changed');
    expect(await failures('lin')).toBe(0);
  });

  it('an AD account proves with its AD password (its link is the objectGUID)', async () => {
    const kwan = await directorySession('ad', 'kwan', d.ad.users.kwan.password);
    expect((await kwan.req('GET', ATTRIBUTES)).json.directory).toBe('Windows AD');
    const wrong = await kwan.req('POST', UNBIND, { body: { email: 'kwan@corp.example', password: 'Wrong#Pass-9' } });
    expect([wrong.status, wrong.json.code]).toEqual([400, 'ProfileEmailDirectoryPasswordIncorrect']);
    const ok = await kwan.req('POST', UNBIND, {
      body: { email: 'kwan@corp.example', password: d.ad.users.kwan.password },
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json.email).toBeNull();
    expect((await sink.waitFor('kwan@corp.example')).links).toEqual([]);
    // The right one cleared the wrong one's slot.
    expect(await failures('kwan')).toBe(0);
  });

  it('wrong directory passwords take lockout slots: the 5th locks (sign-in too), the directory judged exactly 5', async () => {
    const mo = await directorySession('ldap', 'mo', d.ldap.users.mo.password);
    const before = bindsAs(d.ldap.users.mo.dn).length;
    const codes: string[] = [];
    for (let i = 0; i < 6; i++) {
      const a = await mo.req('POST', REBIND, { body: { email: `mo${i}@example.net`, password: `Wrong#Pass-${i}` } });
      codes.push(`${a.status} ${a.json.code}`);
    }
    expect(codes).toEqual([
      ...Array(4).fill('400 ProfileEmailDirectoryPasswordIncorrect'),
      '423 ProfileAccountLocked',
      '423 ProfileAccountLocked',
    ]);
    expect(bindsAs(d.ldap.users.mo.dn).slice(before)).toEqual([49, 49, 49, 49, 49]);
    // Locked: the right password is refused unasked, and directory sign-in is locked too.
    const right = await mo.req('POST', REBIND, {
      body: { email: 'mo@example.net', password: d.ldap.users.mo.password },
    });
    expect([right.status, right.json.code]).toEqual([423, 'ProfileAccountLocked']);
    const signIn = await clientFrom(s.url).req('POST', '/users/ajax/login', {
      body: { username: 'mo', password: d.ldap.users.mo.password, method: 'ldap' },
    });
    expect(signIn.status).toBe(423);
    expect(bindsAs(d.ldap.users.mo.dn).slice(before)).toHaveLength(5);
    const list = await mo.req('POST', `${INBOX}:list`, { body: { page_size: 100 } });
    expect((list.json.messages as { type: string }[]).filter((m) => m.type === 'account.locked')).toHaveLength(1);
    expect(sink.mails.filter((m) => m.to.some((to) => to.startsWith('mo')))).toHaveLength(0);
    expect((await mo.req('GET', '/individual/proxy/me')).json.email).toBe('mo@example.org');
    await s.ctx.lockout.unlock('mo');
  });

  it('20 parallel wrong directory passwords: the directory judges 5, 4 answer incorrect and 16 locked', async () => {
    const lin2 = await directorySession('ldap', 'lin2', d.ldap.users.lin2.password);
    const before = bindsAs(d.ldap.users.lin2.dn).length;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        lin2.req('POST', REBIND, { body: { email: `l${i}@example.net`, password: `Wrong#Pass-${i}` } }),
      ),
    );
    const codes = answers.map((a) => a.json.code);
    expect(codes.filter((c) => c === 'ProfileEmailDirectoryPasswordIncorrect')).toHaveLength(4);
    expect(codes.filter((c) => c === 'ProfileAccountLocked')).toHaveLength(16);
    expect(bindsAs(d.ldap.users.lin2.dn).slice(before)).toEqual([49, 49, 49, 49, 49]);
    await s.ctx.lockout.unlock('lin2');
  });

  it('first password of a directory account: its directory password, not the session alone; it then proves nothing', async () => {
    const sam = await directorySession('ldap', 'sam', d.ldap.users.sam.password);
    // Before: the session alone set a local password (a way in that outlives the session and the directory's say).
    const bare = await sam.req('PUT', PASSWORD, {
      body: { new_password: 'Local#Pass1' },
      headers: { 'accept-language': 'en-US' },
    });
    expect([bare.status, bare.json.code, bare.json.message]).toEqual([
      400,
      'FirstPasswordDirectoryPasswordRequired',
      'To set a password, enter the password you sign in with through your directory (LDAP or Windows AD).',
    ]);
    // No mailed code instead: a directory account proves with its directory.
    const code = await sam.req('POST', CODE, { body: { purpose: 'password' } });
    expect([code.status, code.json.code]).toEqual([400, 'ProfileEmailBindingStatusWrong']);
    const before = bindsAs(d.ldap.users.sam.dn).length;
    const wrong = await sam.req('PUT', PASSWORD, {
      body: { new_password: 'Local#Pass1', old_password: 'Wrong#Pass-1' },
    });
    expect([wrong.status, wrong.json.code]).toEqual([400, 'FirstPasswordDirectoryPasswordIncorrect']);
    // Counted in the lock of the browser that sent it (sam's own, marked at sign-in), as a wrong current password.
    expect((await s.ctx.lockout.state('sam', 'marked')).failures).toBe(1);
    const set = await sam.req('PUT', PASSWORD, {
      body: { new_password: 'Local#Pass1', old_password: d.ldap.users.sam.password },
    });
    expect(set.status, set.text).toBe(200);
    // The directory judged both: one refused and one accepted bind as sam.
    expect(bindsAs(d.ldap.users.sam.dn).slice(before)).toEqual([49, 0]);
    expect((await s.ctx.lockout.state('sam', 'marked')).failures).toBe(0);
    const withLocal = await sam.req('POST', REBIND, { body: { email: 'thief@evil.example', password: 'Local#Pass1' } });
    expect([withLocal.status, withLocal.json.code]).toEqual([400, 'ProfileEmailDirectoryPasswordIncorrect']);
    const ok = await sam.req('POST', REBIND, {
      body: { email: 'sam.new@example.net', password: d.ldap.users.sam.password },
    });
    expect(ok.status, ok.text).toBe(200);
    await s.ctx.lockout.unlock('sam');
  });

  it('a directory that cannot be reached answers 503 in the reader’s language and counts no slot', async () => {
    const tao = await directorySession('ldap', 'tao', d.ldap.users.tao.password);
    await d.stop();
    try {
      for (const [language, message] of [
        ['en-US', 'The directory cannot be reached, so your password cannot be checked. Please try again later.'],
        ['zh-CN', '无法连接目录服务，暂时无法验证密码，请稍后重试。'],
      ]) {
        const started = Date.now();
        const a = await tao.req('POST', REBIND, {
          body: { email: 'tao.new@example.net', password: d.ldap.users.tao.password },
          headers: { 'accept-language': language },
        });
        expect(Date.now() - started).toBeLessThan(5000);
        expect([a.status, a.json.code, a.json.message]).toEqual([503, 'ProfileEmailDirectoryUnavailable', message]);
      }
      // Wrong or right, a directory that is down is not the person failing.
      for (let i = 0; i < 5; i++) {
        const a = await tao.req('POST', REBIND, { body: { email: 'tao.new@example.net', password: `Wrong#${i}` } });
        expect(a.status).toBe(503);
      }
      // Nor can a first password be proven while it is down.
      const first = await tao.req('PUT', PASSWORD, {
        body: { new_password: 'Local#Pass1', old_password: d.ldap.users.tao.password },
        headers: { 'accept-language': 'en-US' },
      });
      expect([first.status, first.json.code]).toEqual([503, 'DirectoryUnavailable']);
      expect((await s.ctx.lockout.state('tao', 'marked')).failures).toBe(0);
      expect(await failures('tao')).toBe(0);
      expect(await s.ctx.lockout.isLocked('tao')).toBe(false);
      expect(s.logs.join('\n')).toContain('directory password check: directory unavailable');
      expect(sink.mails).toHaveLength(0);
    } finally {
      await d.restart();
    }
    const ok = await tao.req('POST', REBIND, {
      body: { email: 'tao.new@example.net', password: d.ldap.users.tao.password },
    });
    expect(ok.status, ok.text).toBe(200);
    await sink.waitFor('tao@example.org');
  });

  /** Adds a person to the LDAP directory (with a mail attribute unless `mail` is null); resolves with the password. */
  async function addPerson(login: string, mail: string | null): Promise<string> {
    const password = `${login[0].toUpperCase()}${login.slice(1)}#Pass-7`;
    await d.asAdmin('ldap', (c) =>
      c.add(`uid=${login},ou=people,${d.ldap.baseDn}`, {
        objectClass: ['inetOrgPerson'],
        uid: login,
        cn: `${login} Person`,
        sn: 'Person',
        ...(mail ? { mail } : {}),
        userPassword: password,
      }),
    );
    return password;
  }

  const inboxTypes = async (c: Client) =>
    (
      (await c.req('POST', `${INBOX}:list`, { body: { page_size: 100 } })).json.messages as {
        type: string;
        body: string;
      }[]
    )
      .filter((m) => m.type.startsWith('email.'))
      .map((m) => `${m.type} ${m.body}`);

  it('the directory owns a directory account’s e-mail: a change here lasts until the next sign-in puts the directory’s back', async () => {
    const password = await addPerson('ivy', 'ivy@example.org');
    const ivy = await directorySession('ldap', 'ivy', password);
    expect((await ivy.req('GET', '/individual/proxy/me')).json).toMatchObject({
      email: 'ivy@example.org',
      email_verified: true,
    });
    // A change in the settings, proven with the directory password: it stands, unverified, until the next sign-in.
    const moved = await ivy.req('POST', REBIND, { body: { email: 'ivy.home@example.net', password } });
    expect(moved.status, moved.text).toBe(200);
    const activation = await sink.waitFor('ivy.home@example.net');
    const token = new URL(activation.links[0]).searchParams.get('token')!;
    expect(await inboxTypes(ivy)).toHaveLength(1);

    // The next directory sign-in (the same proof) puts the directory's address back, verified, and says so.
    const again = await directorySession('ldap', 'ivy', password);
    expect((await again.req('GET', '/individual/proxy/me')).json).toMatchObject({
      email: 'ivy@example.org',
      email_verified: true,
    });
    const told = await inboxTypes(again);
    expect(told).toHaveLength(2);
    // (Both at the same instant of the test's clock: their order is not the point.)
    expect(told.filter((m) => /^email\.changed .*ivy@example\.org/.test(m))).toHaveLength(1);
    // The changed address's activation link no longer matches the account's address.
    const late = await again.req('POST', '/individual/proxy/my/email:verify', { body: { token } });
    expect([late.status, late.json.code]).toEqual([400, 'ProfileEmailActivateMismatch']);
    // A sign-in that changes nothing tells nothing.
    const third = await directorySession('ldap', 'ivy', password);
    expect(await inboxTypes(third)).toHaveLength(2);
  });

  it('a directory account whose directory has no e-mail for it keeps the one set in the settings', async () => {
    const password = await addPerson('jun', null);
    const jun = await directorySession('ldap', 'jun', password);
    expect((await jun.req('GET', ATTRIBUTES)).json).toMatchObject({ directory: 'Example LDAP', email: null });
    const bound = await jun.req('POST', '/users/ajax/v1/my/emails:bind', {
      body: { email: 'jun@example.net', password },
    });
    expect(bound.status, bound.text).toBe(200);
    const again = await directorySession('ldap', 'jun', password);
    expect((await again.req('GET', '/individual/proxy/me')).json.email).toBe('jun@example.net');
  });

  it('a local account is asked its own password as before, and is told of no directory', async () => {
    const { alice } = await s.signIn('alice');
    expect((await alice.req('GET', ATTRIBUTES)).json).toMatchObject({ has_password: true, directory: null });
    const bare = await alice.req('POST', REBIND, { body: { email: 'alice2@example.org' } });
    expect([bare.status, bare.json.code]).toEqual([400, 'ProfileEmailPasswordRequired']);
    const ok = await alice.req('POST', REBIND, { body: { email: 'alice2@example.org', password: 'Secret#123' } });
    expect(ok.status, ok.text).toBe(200);
  });
});
