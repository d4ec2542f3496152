// E-mail changes of directory accounts (issue 38, item 3; since issue 40 through re-authentication): an account that
// signs in through LDAP / Windows AD proves itself with its directory password, judged by the directory (a real
// slapd), under the sign-in lockout; a directory that cannot be reached answers 503 and counts nothing. Local-password
// and code accounts: email-change.test.ts; re-authentication itself: reauth.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { INBOX, useTestServer, type Client } from '../kit/server';
import { clientFrom } from '../kit/captcha';
import { startSmtpSink, type SmtpSink } from '../kit/smtp';
import { startSlapd, type TestDirectory } from '../kit/slapd';
import { setDirectory } from '../../plugins/login/server/directory';
import { DEFAULT_REAUTH_WINDOW_MINUTES } from '../../server/config';
import { REAUTH_PATHS } from '../../schemas/reauth';

const REBIND = '/users/ajax/v1/my/emails:rebind';
const UNBIND = '/individual/proxy/my/email:unbind';
const CODE = '/users/ajax/v1/my/emails:code';
const ATTRIBUTES = '/users/ajax/v1/my/attributes:bind';
const PASSWORD = '/users/ajax/v1/my/password';
const REAUTH = REAUTH_PATHS.my;
/** Past the re-authentication window of a sign-in (or of the last proof). */
const STALE_MS = DEFAULT_REAUTH_WINDOW_MINUTES * 60_000 + 1000;

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
  /** A proof with `password`; a right one's rotated CSRF token is kept, as the web client does. */
  async function prove(c: Client, password: string) {
    const a = await c.req('POST', REAUTH, { body: { password } });
    if (a.status === 200) c.csrf = a.json.csrf_token;
    return a;
  }

  it('proves with the directory password: the page is told the directory, the old address gets the notice', async () => {
    const lin = await directorySession('ldap', 'lin', d.ldap.users.lin.password);
    const attrs = await lin.req('GET', ATTRIBUTES);
    expect(attrs.json).toEqual({
      has_password: false,
      directory: 'Example LDAP',
      email: 'lin@example.org',
      email_verified: true,
    });
    expect((await lin.req('GET', REAUTH)).json).toMatchObject({ method: 'directory', directory: 'Example LDAP' });
    s.clock.advance(STALE_MS);
    // No recent proof: refused, and no code instead (that is for accounts with neither password nor directory).
    const bare = await lin.req('POST', REBIND, { body: { email: 'lin.new@example.net' } });
    expect([bare.status, bare.json.code]).toEqual([403, 'ReauthRequired']);
    const code = await lin.req('POST', CODE);
    expect([code.status, code.json.code]).toEqual([400, 'ProfileEmailBindingStatusWrong']);
    // No code was mailed (the sign-in's security notice, if any, carries none).
    expect(sink.mails.filter((m) => /(?<![0-9])[0-9]{6}(?![0-9])/.test(m.text))).toHaveLength(0);

    const before = bindsAs(d.ldap.users.lin.dn).length;
    const proof = await prove(lin, d.ldap.users.lin.password);
    expect(proof.status, proof.text).toBe(200);
    // The directory judged it: one more accepted bind as lin.
    expect(bindsAs(d.ldap.users.lin.dn).slice(before)).toEqual([0]);
    const ok = await lin.req('POST', REBIND, { body: { email: 'lin.new@example.net' } });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json).toMatchObject({ email: 'lin.new@example.net', email_verified: false });
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
    s.clock.advance(STALE_MS);
    const wrong = await prove(kwan, 'Wrong#Pass-9');
    expect([wrong.status, wrong.json.code]).toEqual([400, 'ReauthPasswordIncorrect']);
    expect((await prove(kwan, d.ad.users.kwan.password)).status).toBe(200);
    const ok = await kwan.req('POST', UNBIND, { body: { email: 'kwan@corp.example' } });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json.email).toBeNull();
    expect((await sink.waitFor('kwan@corp.example')).links).toEqual([]);
    // The right one cleared the wrong one's slot.
    expect(await failures('kwan')).toBe(0);
  });

  it('wrong directory passwords take lockout slots: the 5th locks (sign-in too), the directory judged exactly 5', async () => {
    const mo = await directorySession('ldap', 'mo', d.ldap.users.mo.password);
    s.clock.advance(STALE_MS);
    const before = bindsAs(d.ldap.users.mo.dn).length;
    const codes: string[] = [];
    for (let i = 0; i < 6; i++) {
      const a = await prove(mo, `Wrong#Pass-${i}`);
      codes.push(`${a.status} ${a.json.code}`);
    }
    expect(codes).toEqual([
      ...Array(4).fill('400 ReauthPasswordIncorrect'),
      '423 ReauthAccountLocked',
      '423 ReauthAccountLocked',
    ]);
    expect(bindsAs(d.ldap.users.mo.dn).slice(before)).toEqual([49, 49, 49, 49, 49]);
    // Locked: the right password is refused unasked, and directory sign-in is locked too.
    const right = await prove(mo, d.ldap.users.mo.password);
    expect([right.status, right.json.code]).toEqual([423, 'ReauthAccountLocked']);
    expect((await mo.req('POST', REBIND, { body: { email: 'mo@example.net' } })).json.code).toBe('ReauthRequired');
    // In the lock of mo's own browsers (the proofs came from one): a sign-in there is refused too.
    const signIn = await mo.req('POST', '/users/ajax/login', {
      body: { username: 'mo', password: d.ldap.users.mo.password, method: 'ldap' },
    });
    expect(signIn.status).toBe(423);
    expect(bindsAs(d.ldap.users.mo.dn).slice(before)).toHaveLength(5);
    const list = await mo.req('POST', `${INBOX}:list`, { body: { page_size: 100 } });
    expect((list.json.messages as { type: string }[]).filter((m) => m.type === 'account.locked')).toHaveLength(1);
    // No activation or change notice: mo is told of the lock only (the security slice's mail, without a link).
    expect(sink.mails.filter((m) => m.to.some((to) => to.startsWith('mo'))).map((m) => m.links)).toEqual([[]]);
    expect(sink.mails.filter((m) => m.to.some((to) => to.startsWith('mo'))).map((m) => m.to)).toEqual([
      ['mo@example.org'],
    ]);
    expect((await mo.req('GET', '/individual/proxy/me')).json.email).toBe('mo@example.org');
    await s.ctx.lockout.unlock('mo');
  });

  it('20 parallel wrong directory passwords: the directory judges 5, 4 answer incorrect and 16 locked', async () => {
    const lin2 = await directorySession('ldap', 'lin2', d.ldap.users.lin2.password);
    s.clock.advance(STALE_MS);
    const before = bindsAs(d.ldap.users.lin2.dn).length;
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => prove(lin2, `Wrong#Pass-${i}`)));
    const codes = answers.map((a) => a.json.code);
    expect(codes.filter((c) => c === 'ReauthPasswordIncorrect')).toHaveLength(4);
    expect(codes.filter((c) => c === 'ReauthAccountLocked')).toHaveLength(16);
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
    // The local password proves nothing: the directory's judges sam's proofs.
    s.clock.advance(STALE_MS);
    expect((await sam.req('GET', REAUTH)).json.method).toBe('directory');
    const withLocal = await prove(sam, 'Local#Pass1');
    expect([withLocal.status, withLocal.json.code]).toEqual([400, 'ReauthPasswordIncorrect']);
    expect((await sam.req('POST', REBIND, { body: { email: 'thief@evil.example' } })).status).toBe(403);
    expect((await prove(sam, d.ldap.users.sam.password)).status).toBe(200);
    const ok = await sam.req('POST', REBIND, { body: { email: 'sam.new@example.net' } });
    expect(ok.status, ok.text).toBe(200);
    await s.ctx.lockout.unlock('sam');
  });

  it('a directory that cannot be reached answers 503 in the reader’s language and counts no slot', async () => {
    const tao = await directorySession('ldap', 'tao', d.ldap.users.tao.password);
    s.clock.advance(STALE_MS);
    await d.stop();
    try {
      for (const [language, message] of [
        ['en-US', 'The directory cannot check your password right now. Please try again later.'],
        ['zh-CN', '目录服务暂时无法验证密码，请稍后再试。'],
      ]) {
        const started = Date.now();
        const a = await tao.req('POST', REAUTH, {
          body: { password: d.ldap.users.tao.password },
          headers: { 'accept-language': language },
        });
        expect(Date.now() - started).toBeLessThan(5000);
        expect([a.status, a.json.code, a.json.message]).toEqual([503, 'ReauthDirectoryUnavailable', message]);
      }
      // Wrong or right, a directory that is down is not the person failing.
      for (let i = 0; i < 5; i++) {
        const a = await prove(tao, `Wrong#${i}`);
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
    expect((await prove(tao, d.ldap.users.tao.password)).status).toBe(200);
    const ok = await tao.req('POST', REBIND, { body: { email: 'tao.new@example.net' } });
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
    // A change in the settings (the sign-in is the recent proof): it stands, unverified, until the next sign-in.
    const moved = await ivy.req('POST', REBIND, { body: { email: 'ivy.home@example.net' } });
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
    const bound = await jun.req('POST', '/users/ajax/v1/my/emails:bind', { body: { email: 'jun@example.net' } });
    expect(bound.status, bound.text).toBe(200);
    const again = await directorySession('ldap', 'jun', password);
    expect((await again.req('GET', '/individual/proxy/me')).json.email).toBe('jun@example.net');
  });

  it('a local account proves with its own password, and is told of no directory', async () => {
    const { alice } = await s.signIn('alice');
    expect((await alice.req('GET', ATTRIBUTES)).json).toMatchObject({ has_password: true, directory: null });
    expect((await alice.req('GET', REAUTH)).json).toMatchObject({ method: 'password', directory: null });
    s.clock.advance(STALE_MS);
    const bare = await alice.req('POST', REBIND, { body: { email: 'alice2@example.org' } });
    expect([bare.status, bare.json.code]).toEqual([403, 'ReauthRequired']);
    expect((await prove(alice, 'Secret#123')).status).toBe(200);
    const ok = await alice.req('POST', REBIND, { body: { email: 'alice2@example.org' } });
    expect(ok.status, ok.text).toBe(200);
  });
});
