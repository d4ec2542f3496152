import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Attribute, Change } from 'ldapts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, useTestServer, type Answer, type TestServer } from '../kit/server';
import { clientFrom, freshAddress, solveSliders } from '../kit/captcha';
import { expectNoSecrets } from '../kit/secrets';
import { LDAP_ADMIN_PASSWORD, LDAP_PASSWORDS, startSlapd, type TestDirectory } from '../kit/slapd';
import { findUserByUsername } from '../../server/services/accounts';
import { SESSION_COOKIE } from '../../server/auth/sessions';
import { setDirectory, type DirectoryInput } from '../../plugins/login/server/directory';
import type { PageConfig } from '../../schemas/page-config';

const LOGIN = '/users/ajax/login';
const WRONG = 'Wrong#Pass-9';

/** One directory sign-in from its own address (unless given), as the login page's LDAP / AD tab sends it. */
function directoryLogin(
  s: TestServer,
  method: 'ldap' | 'ad',
  username: string,
  password: string,
  { address = freshAddress(), pass }: { address?: string; pass?: string } = {},
): Promise<Answer & { client: Client }> {
  const client = clientFrom(s.url, address);
  return client
    .req('POST', LOGIN, { body: { username, password, method, ...(pass ? { captcha_pass: pass } : {}) } })
    .then((a) => {
      if (a.status === 200) client.csrf = a.json.csrf_token;
      return { ...a, client };
    });
}

async function pageConfig(c: Client, url: string): Promise<PageConfig> {
  const page = await c.req('GET', url);
  expect(page.status).toBe(200);
  const m = /<script[^>]*id="page-config"[^>]*>([\s\S]*?)<\/script>/.exec(page.text);
  return JSON.parse(m![1]) as PageConfig;
}

const check = async (s: TestServer, name: string) => {
  const a = await clientFrom(s.url).req('GET', `/users/ajax/users/${encodeURIComponent(name)}/check`);
  return { locked: a.json.locked, need_captcha: a.json.need_captcha };
};

const userCount = async (s: TestServer) =>
  Number(
    (
      await s.ctx.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** Successful and failed binds slapd received as `dn`. */
const bindsAs = (d: TestDirectory, dn: string) => d.binds().filter((b) => b.dn.toLowerCase() === dn.toLowerCase());

describe('directory sign-in (LDAP, Windows AD) against a real OpenLDAP', () => {
  const s = useTestServer({ env: { TRUST_PROXY: 'loopback' } });
  let d: TestDirectory;
  /** What the service stores for each kind, so tests can change one option and put it back. */
  const config: Record<'ldap' | 'ad', DirectoryInput> = {} as never;
  const directoryIds: Record<'ldap' | 'ad', string> = {} as never;

  const configure = async (kind: 'ldap' | 'ad', change: Partial<DirectoryInput> = {}) => {
    const row = await setDirectory({ db: s.ctx.db, clock: s.clock }, { ...config[kind], ...change });
    directoryIds[kind] = row.id;
    return row;
  };

  beforeAll(async () => {
    d = await startSlapd();
    // The service reads the bind passwords from files at use time (never stored).
    const ldapSecret = path.join(s.dataDir, 'ldap-bind-password');
    const adSecret = path.join(s.dataDir, 'ad-bind-password');
    fs.writeFileSync(ldapSecret, `${d.ldap.bindPassword}\n`, { mode: 0o600 });
    fs.writeFileSync(adSecret, d.ad.bindPassword, { mode: 0o600 });
    config.ldap = {
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
    };
    // AD: the service's defaults (filter without disabled accounts, sAMAccountName or userPrincipalName).
    config.ad = { kind: 'ad', url: d.url, bindDn: d.ad.bindDn, bindSecretRef: `file:${adSecret}`, baseDn: d.ad.baseDn };
    await configure('ldap');
    await configure('ad');
  });

  afterAll(async () => {
    await d?.close();
  });

  it('offers the enabled directories on the login page, and answers DirectoryNotEnabled for a disabled one', async () => {
    const anon = new Client(s.url);
    expect((await pageConfig(anon, '/users/login')).signIn?.directories).toEqual(['ldap', 'ad']);
    await configure('ad', { enabled: false });
    try {
      expect((await pageConfig(anon, '/users/login')).signIn?.directories).toEqual(['ldap']);
      const a = await directoryLogin(s, 'ad', 'kwan', LDAP_PASSWORDS.kwan);
      expect(a.status).toBe(400);
      expect(a.json.code).toBe('DirectoryNotEnabled');
      expect(a.client.cookies.has(SESSION_COOKIE)).toBe(false);
      expect(await findUserByUsername(s.ctx.db, 'kwan')).toBeUndefined();
    } finally {
      await configure('ad');
    }
  });

  it("offers an organisation's own directory on its login page, and adds the people it signs in to that organisation", async () => {
    const made = await s.seed({ orgs: { 'Directory Org': [] } });
    const orgId = made.orgs['Directory Org'];
    const anon = new Client(s.url);
    await configure('ldap', { enabled: false });
    const orgDirectory = await setDirectory(
      { db: s.ctx.db, clock: s.clock },
      { ...config.ldap, orgId, displayName: 'Directory Org LDAP' },
    );
    try {
      expect((await pageConfig(anon, '/users/login')).signIn?.directories).toEqual(['ad']);
      expect((await pageConfig(anon, `/users/login?org=${orgId}`)).signIn?.directories).toEqual(['ldap', 'ad']);
      const signIn = (body: Record<string, unknown>) =>
        clientFrom(s.url, freshAddress()).req('POST', LOGIN, {
          body: { username: 'mo', password: d.ldap.users.mo.password, method: 'ldap', ...body },
        });
      const without = await signIn({});
      expect(without.status).toBe(400);
      expect(without.json.code).toBe('DirectoryNotEnabled');
      const other = await signIn({ org_id: 'NoSuchOrg' });
      expect(other.json.code).toBe('DirectoryNotEnabled');
      const a = await signIn({ org_id: orgId });
      expect(a.status, a.text).toBe(200);
      const user = await findUserByUsername(s.ctx.db, 'mo');
      expect(user?.current_org_id).toBe(orgId);
      const identity = await s.ctx.db
        .selectFrom('identities')
        .select(['credential', 'name'])
        .where('user_id', '=', user!.id)
        .executeTakeFirstOrThrow();
      expect(identity).toEqual({ credential: `directory:${orgDirectory.id}`, name: 'Directory Org LDAP' });
    } finally {
      await s.ctx.db.deleteFrom('users').where('username_lower', '=', 'mo').execute();
      await s.ctx.db.deleteFrom('sign_in_directories').where('id', '=', orgDirectory.id).execute();
      await configure('ldap');
    }
  });

  it('signs an LDAP user in, creates the linked account from the directory, and refreshes it at the next sign-in', async () => {
    const lin = d.ldap.users.lin;
    const a = await directoryLogin(s, 'ldap', 'lin', lin.password);
    expect(a.status, a.text).toBe(200);
    expect(a.json.user).toMatchObject({ username: 'lin', name: 'Lin Wei', email: 'lin@example.org' });
    expect(a.client.cookies.has(SESSION_COOKIE)).toBe(true);
    const me = await a.client.req('GET', '/individual/proxy/me');
    expect(me.status).toBe(200);
    expect(me.json).toMatchObject({ username: 'lin', name: 'Lin Wei', email: 'lin@example.org' });
    // The security page names the directory it signed in through.
    const listed = await a.client.req('GET', '/users/ajax/v1/my/sessions');
    expect(listed.json.sessions).toMatchObject([{ method: 'ldap', current: true }]);

    const [entry] = (await d.asAdmin('ldap', (c) => c.search(lin.dn, { scope: 'base', attributes: ['entryUUID'] })))
      .searchEntries;
    const ids = await a.client.req('GET', '/individual/proxy/my/identities');
    expect(ids.status).toBe(200);
    expect(ids.json.results).toEqual([
      expect.objectContaining({
        provider: 'idp',
        credential: `directory:${directoryIds.ldap}`,
        open_id: entry.entryUUID,
        name: 'Example LDAP',
      }),
    ]);
    // The account has no password of its own: the password form does not sign it in.
    expect((await clientFrom(s.url).login('lin', lin.password)).status).toBe(401);

    await d.asAdmin('ldap', (c) =>
      c.modify(lin.dn, [
        new Change({ operation: 'replace', modification: new Attribute({ type: 'cn', values: ['Lin Wei-Zhang'] }) }),
        new Change({
          operation: 'replace',
          modification: new Attribute({ type: 'mail', values: ['wei@example.org'] }),
        }),
      ]),
    );
    const again = await directoryLogin(s, 'ldap', 'lin', lin.password);
    expect(again.status, again.text).toBe(200);
    expect(again.json.user).toMatchObject({ id: a.json.user.id, name: 'Lin Wei-Zhang', email: 'wei@example.org' });
    const row = await findUserByUsername(s.ctx.db, 'lin');
    expect(row).toMatchObject({ id: a.json.user.id, name: 'Lin Wei-Zhang', email: 'wei@example.org' });
    // Still one identity row.
    expect((await again.client.req('GET', '/individual/proxy/my/identities')).json.results).toHaveLength(1);
  });

  it('signs an AD user in by sAMAccountName or userPrincipalName into one account; a disabled AD account is refused', async () => {
    const kwan = d.ad.users.kwan;
    const byUpn = await directoryLogin(s, 'ad', 'kwan@corp.example', kwan.password);
    expect(byUpn.status, byUpn.text).toBe(200);
    expect(byUpn.json.user).toMatchObject({ username: 'kwan', name: 'Kwan Li', email: 'kwan@corp.example' });
    const bySam = await directoryLogin(s, 'ad', 'kwan', kwan.password);
    expect(bySam.status, bySam.text).toBe(200);
    expect(bySam.json.user.id).toBe(byUpn.json.user.id);
    const ids = (await bySam.client.req('GET', '/individual/proxy/my/identities')).json.results;
    // AD's objectGUID (bytes, as hex) is the stable id.
    expect(ids).toEqual([
      expect.objectContaining({
        provider: 'idp',
        credential: `directory:${directoryIds.ad}`,
        open_id: '3a2c1e6f5d4b6f4e8a9b0c1d2e3f4a5b',
        name: 'Windows AD',
      }),
    ]);
    // The LDAP directory does not know kwan.
    expect((await directoryLogin(s, 'ldap', 'kwan', kwan.password)).status).toBe(401);

    const dormant = await directoryLogin(s, 'ad', 'dormant', LDAP_PASSWORDS.dormant);
    expect(dormant.status).toBe(401);
    expect(dormant.json.code).toBe('AccountOrPasswordIncorrect');
    expect(dormant.client.cookies.has(SESSION_COOKIE)).toBe(false);
    expect(await findUserByUsername(s.ctx.db, 'dormant')).toBeUndefined();
  });

  it('refuses a disabled LDAP user (left out by the filter) like a wrong password', async () => {
    const ghost = await directoryLogin(s, 'ldap', 'ghost', LDAP_PASSWORDS.ghost);
    const unknown = await directoryLogin(s, 'ldap', 'nobody-here', LDAP_PASSWORDS.ghost);
    expect(ghost.status).toBe(401);
    expect(ghost.json.code).toBe('AccountOrPasswordIncorrect');
    expect(unknown.json.code).toBe(ghost.json.code);
    expect(await findUserByUsername(s.ctx.db, 'ghost')).toBeUndefined();
    // slapd never saw a bind as ghost: the search left it out.
    expect(bindsAs(d, d.ldap.users.ghost.dn)).toEqual([]);
  });

  it('never signs in through filter injection or wildcards, whatever the password', async () => {
    const before = await userCount(s);
    const bindsBefore = d.binds().length;
    const names = ['*', 'lin*', 'l*n', '*)(uid=*', 'lin)(|(uid=*', '\\', 'lin\\00', 'lin\u0000', '(uid=lin)', 'lin)'];
    for (const username of names) {
      // Two tries per name: a third would meet the slider (403) before any password is evaluated.
      for (const password of [LDAP_PASSWORDS.lin, LDAP_PASSWORDS.lin2]) {
        const a = await directoryLogin(s, 'ldap', username, password);
        expect([400, 401], `${JSON.stringify(username)} answered ${a.status} ${a.text}`).toContain(a.status);
        expect(a.client.cookies.has(SESSION_COOKIE)).toBe(false);
      }
    }
    expect(await userCount(s)).toBe(before);
    // No bind as any person: every search found nobody (only the service account bound).
    const personBinds = d
      .binds()
      .slice(bindsBefore)
      .filter((b) => b.dn.toLowerCase() !== d.ldap.bindDn.toLowerCase());
    expect(personBinds).toEqual([]);
  });

  it('refuses an empty password by validation (an unauthenticated bind must never sign in)', async () => {
    const bindsBefore = d.binds().length;
    for (const [method, name] of [
      ['ldap', 'mo'],
      ['ad', 'kwan'],
    ] as const) {
      const a = await directoryLogin(s, method, name, '');
      expect(a.status).toBe(400);
      expect(a.client.cookies.has(SESSION_COOKIE)).toBe(false);
    }
    expect(d.binds().length).toBe(bindsBefore);
    expect(await findUserByUsername(s.ctx.db, 'mo')).toBeUndefined();
  });

  it('locks after 5 wrong directory passwords; then the right one is refused too', async () => {
    const sam = d.ldap.users.sam;
    const address = freshAddress();
    const bare = [];
    for (let i = 0; i < 3; i++) bare.push((await directoryLogin(s, 'ldap', 'sam', WRONG, { address })).status);
    expect(bare).toEqual([401, 401, 403]);
    expect(await check(s, 'sam')).toEqual({ locked: false, need_captcha: true });
    const passes = await solveSliders(s.ctx, s.url, 'sam', 5);
    const withPass = [];
    for (let i = 0; i < 4; i++)
      withPass.push((await directoryLogin(s, 'ldap', 'sam', WRONG, { address, pass: passes[i] })).status);
    expect(withPass).toEqual([401, 401, 423, 423]);
    const right = await directoryLogin(s, 'ldap', 'sam', sam.password, { address, pass: passes[4] });
    expect(right.status).toBe(423);
    expect(right.json.code).toBe('AccountLocked');
    expect(await check(s, 'sam')).toEqual({ locked: true, need_captcha: true });
    // Only the 5 counted attempts reached the directory.
    expect(bindsAs(d, sam.dn).map((b) => b.err)).toEqual([49, 49, 49, 49, 49]);
    expect(await findUserByUsername(s.ctx.db, 'sam')).toBeUndefined();
  });

  it('evaluates at most 5 passwords under 30 parallel attempts (2 without passes)', async () => {
    const tao = d.ldap.users.tao;
    const bare = await Promise.all(
      Array.from({ length: 30 }, () => directoryLogin(s, 'ldap', 'tao', WRONG, { address: '10.250.0.1' })),
    );
    expect(bare.filter((a) => a.status === 401)).toHaveLength(2);
    expect(bare.filter((a) => a.status === 403 && a.json.code === 'CaptchaRequired')).toHaveLength(28);
    expect(bindsAs(d, tao.dn)).toHaveLength(2);
    const passes = await solveSliders(s.ctx, s.url, 'tao', 30);
    const withPass = await Promise.all(
      passes.map((pass) => directoryLogin(s, 'ldap', 'tao', WRONG, { address: '10.250.0.2', pass })),
    );
    const evaluated = withPass.filter((a) => a.status !== 403 && a.status !== 423);
    expect(evaluated.length).toBeLessThanOrEqual(5);
    expect(withPass.filter((a) => a.status === 401)).toHaveLength(2);
    expect(withPass.filter((a) => a.status === 423)).toHaveLength(28);
    expect(bindsAs(d, tao.dn).length).toBeLessThanOrEqual(5);
    expect(bindsAs(d, tao.dn).every((b) => b.err === 49)).toBe(true);
  });

  it('answers DirectoryUnavailable within 5 s when the directory is down, creating nothing and counting nothing', async () => {
    const mo = d.ldap.users.mo;
    const address = freshAddress();
    const timed = async () => {
      const t0 = Date.now();
      const a = await directoryLogin(s, 'ldap', 'mo', mo.password, { address });
      return { ...a, ms: Date.now() - t0 };
    };
    // A directory that accepts connections and never answers (the default timeout applies).
    const silent = net.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      await configure('ldap', { url: `ldap://127.0.0.1:${(silent.address() as net.AddressInfo).port}` });
      const a = await timed();
      expect(a.status).toBe(503);
      expect(a.json.code).toBe('DirectoryUnavailable');
      expect(a.ms).toBeLessThan(5000);
    } finally {
      silent.close();
      await configure('ldap');
    }
    // A stopped directory (connection refused), twice.
    await d.stop();
    try {
      for (let i = 0; i < 2; i++) {
        const a = await timed();
        expect(a.status).toBe(503);
        expect(a.json.code).toBe('DirectoryUnavailable');
        expect(a.ms).toBeLessThan(5000);
        expect(a.client.cookies.has(SESSION_COOKIE)).toBe(false);
      }
      // Also with a wrong password: the directory being down is not the person failing.
      expect((await directoryLogin(s, 'ldap', 'mo', WRONG, { address })).status).toBe(503);
    } finally {
      await d.restart();
    }
    expect(await findUserByUsername(s.ctx.db, 'mo')).toBeUndefined();
    expect(await check(s, 'mo')).toEqual({ locked: false, need_captcha: false });
    // Nothing was counted for the name or the address: two wrong attempts still ask no slider.
    expect((await directoryLogin(s, 'ldap', 'mo', WRONG, { address })).status).toBe(401);
    expect((await directoryLogin(s, 'ldap', 'mo', WRONG, { address })).status).toBe(401);
    expect(await check(s, 'mo')).toEqual({ locked: false, need_captcha: true });
    await s.ctx.lockout.unlock('mo');
  });

  it('refuses a person deleted from the directory afterwards', async () => {
    const mo = d.ldap.users.mo;
    const first = await directoryLogin(s, 'ldap', 'mo', mo.password);
    expect(first.status, first.text).toBe(200);
    await d.asAdmin('ldap', (c) => c.del(mo.dn));
    const after = await directoryLogin(s, 'ldap', 'mo', mo.password);
    expect(after.status).toBe(401);
    expect(after.json.code).toBe('AccountOrPasswordIncorrect');
    expect(after.client.cookies.has(SESSION_COOKIE)).toBe(false);
  });

  it('does not take over a local account of the same name (409), leaving it untouched', async () => {
    await s.seed({ users: { lin2: { password: 'Local#Pass-1', name: 'Local Lin' } } });
    const before = await findUserByUsername(s.ctx.db, 'lin2');
    const a = await directoryLogin(s, 'ldap', 'lin2', LDAP_PASSWORDS.lin2);
    expect(a.status).toBe(409);
    expect(a.json.code).toBe('DirectoryAccountConflict');
    expect(a.client.cookies.has(SESSION_COOKIE)).toBe(false);
    expect(await findUserByUsername(s.ctx.db, 'lin2')).toEqual(before);
    const local = clientFrom(s.url);
    expect((await local.login('lin2', 'Local#Pass-1')).status).toBe(200);
    expect((await local.req('GET', '/individual/proxy/my/identities')).json.results).toEqual([]);
  });

  it('signs in over StartTLS and ldaps:// with the directory CA; a certificate it cannot trust answers 503', async () => {
    const lin = d.ldap.users.lin;
    const established = () =>
      d
        .log()
        .split('\n')
        .filter((l) => l.includes('TLS established')).length;
    try {
      for (const tls of [
        { url: d.url, startTls: true, caFile: d.caFile },
        { url: d.ldapsUrl, caFile: d.caFile },
      ]) {
        await configure('ldap', tls);
        const before = established();
        const a = await directoryLogin(s, 'ldap', 'lin', lin.password);
        expect(a.status, `${tls.url} ${a.text}`).toBe(200);
        expect(a.json.user).toMatchObject({ username: 'lin' });
        // Both connections (the service account's search, the person's bind) were encrypted.
        expect(established() - before).toBeGreaterThanOrEqual(2);
      }
      // Without the CA the system's CAs do not know the certificate: no password is sent, the directory is unusable.
      for (const tls of [{ url: d.url, startTls: true }, { url: d.ldapsUrl }]) {
        await configure('ldap', { ...tls, caFile: undefined });
        const a = await directoryLogin(s, 'ldap', 'lin', lin.password);
        expect(a.status, `${tls.url} ${a.text}`).toBe(503);
        expect(a.json.code).toBe('DirectoryUnavailable');
      }
    } finally {
      await configure('ldap');
    }
  });

  it('never logs a bind password or a user password', async () => {
    // Failures of every kind besides what the earlier tests did: a refused service account.
    const wrongSecret = path.join(s.dataDir, 'wrong-bind-password');
    fs.writeFileSync(wrongSecret, 'Not-The#Reader-1');
    await configure('ldap', { bindSecretRef: `file:${wrongSecret}` });
    try {
      const a = await directoryLogin(s, 'ldap', 'lin', d.ldap.users.lin.password);
      expect(a.status).toBe(503);
    } finally {
      await configure('ldap');
    }
    expect((await directoryLogin(s, 'ldap', 'lin', d.ldap.users.lin.password)).status).toBe(200);
    expect(s.logs.length).toBeGreaterThan(10);
    expectNoSecrets(s.logs, [...Object.values(LDAP_PASSWORDS), LDAP_ADMIN_PASSWORD, 'Not-The#Reader-1', WRONG]);
  });
});
