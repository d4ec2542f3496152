// The account's history (issue 40, item 2): written by the service at the moment of each account event, the caller's
// own only, newest first by keyset pages, filtered by group, exported as CSV in the caller's language, 90 days, never
// a secret, and never a word about a name no account has.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock';
import { adminOn, Client, type Answer, useTestServer } from '../kit/server';
import { clientFrom, freshAddress, solveSliders } from '../kit/captcha';
import { REAUTH_PATHS } from '../../schemas/reauth';
import { HISTORY_GROUPS, SECURITY_PATHS, type HistoryEntry, type HistoryKind } from '../../plugins/security/contract';
import type { AccountHistoryTable } from '../../plugins/security/server/history-service';

const RIGHT = 'Secret#123';
const WRONG = 'Wrong#9876';
const NEW_PASSWORD = 'Changed#4567';
const TOKENS = '/users/ajax/v1/my/tokens';
const KEYS = '/uiless/proxy/codeup/api/v3/user/keys';
const PACKAGES_PASSWORD = '/uiless/proxy/package/api/external/users/user/password';
const REBIND = '/users/ajax/v1/my/emails:rebind';
const DAY = 24 * 60 * 60 * 1000;

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

const page = (c: Client, query = '') => c.req('GET', `${SECURITY_PATHS.history}${query}`);
const entriesOf = (a: Answer) => a.json.entries as HistoryEntry[];

describe('account history', () => {
  let keyDir: string;
  beforeAll(() => {
    keyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'history-keys-'));
  });
  afterAll(() => fs.rmSync(keyDir, { recursive: true, force: true }));

  const s = useTestServer({
    // The admin CLI (unlock-user, history) runs on the wall clock: the service's starts a minute before it.
    clock: new ManualClock(Date.now() - 60_000),
    env: { TRUST_PROXY: 'loopback' },
    seed: {
      orgs: { Acme: { apps: ['codeup', 'packages'] } },
      users: {
        alice: { password: RIGHT, org: 'Acme', email: 'alice@example.com' },
        bob: { password: RIGHT, org: 'Acme' },
        carol: { password: RIGHT, org: 'Acme' },
        dave: { password: RIGHT, org: 'Acme' },
      },
    },
  });

  /** Every row of the table, whoever it belongs to. */
  const allRows = () => s.ctx.db.selectFrom('account_history').selectAll().execute() as Promise<AccountHistoryTable[]>;
  /** Where each member signs in from unless told (so a sign-in is a new device only where a test means it). */
  const homes = new Map<string, string>();
  const home = (name: string) => homes.get(name) ?? homes.set(name, freshAddress()).get(name)!;
  /** Signs `name` in with the given browser (from home unless told); fails the test unless it worked. */
  async function signedIn(name: string, password = RIGHT, userAgent = CHROME, address = home(name)) {
    const c = clientFrom(s.url, address, { 'user-agent': userAgent });
    const a = await c.login(name, password);
    expect(a.status, a.text).toBe(200);
    return c;
  }
  /** The secrets the tests used, to look for in rows, answers, exports and logs. */
  const secrets = new Set<string>([RIGHT, WRONG, NEW_PASSWORD]);
  const keepCookies = (c: Client) => {
    for (const v of c.cookies.values()) secrets.add(v);
    if (c.csrf) secrets.add(c.csrf);
  };

  it('writes each kind at its real action, with the address and browser of the request, newest first', async () => {
    await s.ctx.db.updateTable('users').set({ email_verified: 1 }).where('email', 'is not', null).execute();
    const laptopAddress = home('alice');
    const attackerAddress = freshAddress();
    const expected: { kind: HistoryKind; detail?: Record<string, unknown>; address?: string | null }[] = [];
    const step = () => s.clock.advance(1000);

    // A sign-in (the account's first: no "new device" for it).
    const laptop = await signedIn('alice', RIGHT, CHROME, laptopAddress);
    keepCookies(laptop);
    expected.push({ kind: 'sign-in.succeeded', detail: { method: 'password' }, address: laptopAddress });
    step();

    // A wrong password, then a slider pass that is not one: both refused, both the account's to know.
    const attacker = clientFrom(s.url, attackerAddress, { 'user-agent': FIREFOX });
    expect((await attacker.login('alice', WRONG)).status).toBe(401);
    expected.push({ kind: 'sign-in.failed', detail: { method: 'password', reason: 'wrong-password' } });
    step();
    const bogus = await attacker.req('POST', '/users/ajax/login', {
      body: { username: 'alice', password: WRONG, captcha_pass: 'not-a-pass' },
    });
    expect([bogus.status, bogus.json.code]).toEqual([403, 'CaptchaInvalid']);
    expected.push({ kind: 'sign-in.failed', detail: { method: 'password', reason: 'slider-failed' } });
    step();

    // Four more wrong passwords (with slider passes): the 5th failure locks the account (both in one millisecond).
    const passes = await solveSliders(s.ctx, s.url, 'alice', 4);
    passes.forEach((p) => secrets.add(p));
    const statuses = [];
    for (const pass of passes) {
      const a = await attacker.req('POST', '/users/ajax/login', {
        body: { username: 'alice', password: WRONG, captcha_pass: pass },
      });
      statuses.push(a.status);
      expected.push({ kind: 'sign-in.failed', detail: { method: 'password', reason: 'wrong-password' } });
    }
    expect(statuses).toEqual([401, 401, 401, 423]);
    expected.push({ kind: 'account.locked', address: attackerAddress });
    step();
    // While locked even the right password is refused, and said so.
    expect((await attacker.login('alice', RIGHT)).status).toBe(423);
    expected.push({ kind: 'sign-in.failed', detail: { method: 'password', reason: 'locked' } });
    step();

    // The administrator unlocks it (no client: no address, no browser).
    expect((await adminOn(s, 'unlock-user', '--username', 'alice')).code).toBe(0);
    expected.push({ kind: 'account.unlocked', detail: { by: 'admin' }, address: null });
    // The service's time goes on after the CLI's.
    s.clock.set(Date.now() + 1000);

    // A sign-in from a new device.
    const phone = await signedIn('alice', RIGHT, SAFARI, freshAddress());
    keepCookies(phone);
    expected.push({ kind: 'sign-in.succeeded', detail: { method: 'password' } });
    expected.push({ kind: 'sign-in.new-device' });
    step();

    // The password, a token created and deleted, an SSH key added and deleted, the e-mail, the artifact password.
    const changed = await laptop.req('PUT', '/users/ajax/v1/my/password', {
      body: { old_password: RIGHT, new_password: NEW_PASSWORD },
    });
    expect(changed.status, changed.text).toBe(200);
    expected.push({ kind: 'password.changed', detail: { how: 'settings' }, address: laptopAddress });
    step();
    const created = await laptop.req('POST', TOKENS, {
      body: {
        name: 'deploy bot',
        description: 'history test',
        expires_at: new Date(s.clock.now().getTime() + DAY).toISOString(),
        token_scopes: ['base:user:read'],
      },
    });
    expect(created.status, created.text).toBe(200);
    secrets.add(created.json.token);
    expected.push({ kind: 'credential.created', detail: { credential: 'token', name: 'deploy bot' } });
    step();
    expect((await laptop.req('DELETE', `${TOKENS}/${created.json.token_id}`)).status).toBe(200);
    expected.push({ kind: 'credential.deleted', detail: { credential: 'token', name: 'deploy bot' } });
    step();
    const file = path.join(keyDir, 'alice');
    execFileSync('ssh-keygen', ['-q', '-N', '', '-t', 'ed25519', '-C', 'alice@laptop', '-f', file]);
    const added = await laptop.req('POST', KEYS, {
      body: { name: 'work laptop', key: fs.readFileSync(`${file}.pub`, 'utf8') },
    });
    expect(added.status, added.text).toBe(201);
    expected.push({ kind: 'credential.created', detail: { credential: 'ssh-key', name: 'work laptop' } });
    step();
    expect((await laptop.req('DELETE', `${KEYS}/${added.json.id}`)).status).toBeLessThan(300);
    expected.push({ kind: 'credential.deleted', detail: { credential: 'ssh-key', name: 'work laptop' } });
    step();
    const rebound = await laptop.req('POST', REBIND, { body: { email: 'new.alice@example.org' } });
    expect(rebound.status, rebound.text).toBe(200);
    expected.push({ kind: 'email.changed', detail: { email: 'n***@example.org' } });
    step();
    const reset = await laptop.req('POST', PACKAGES_PASSWORD);
    expect(reset.status, reset.text).toBe(200);
    secrets.add(reset.json.password);
    expected.push({ kind: 'credential.created', detail: { credential: 'packages-password' } });
    step();
    // Proofs of re-authentication, a wrong one and a right one (which rotates the session).
    const wrongProof = await laptop.req('POST', REAUTH_PATHS.my, { body: { password: WRONG } });
    expect(wrongProof.status).toBe(400);
    expected.push({ kind: 'reauth.failed', detail: { method: 'password', reason: 'wrong-password' } });
    step();
    const proof = await laptop.req('POST', REAUTH_PATHS.my, { body: { password: NEW_PASSWORD } });
    expect(proof.status, proof.text).toBe(200);
    laptop.csrf = proof.json.csrf_token;
    keepCookies(laptop);
    expected.push({ kind: 'reauth.succeeded', detail: { method: 'password' }, address: laptopAddress });

    const answer = await page(laptop, '?limit=100');
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json.next).toBeNull();
    const entries = entriesOf(answer);
    const want = [...expected].reverse();
    expect(entries.map((e) => e.kind)).toEqual(want.map((e) => e.kind));
    entries.forEach((e, i) => {
      if (want[i].detail) expect(e.detail).toEqual(want[i].detail);
      if (want[i].address !== undefined) expect(e.address).toBe(want[i].address);
    });
    // Newest first, by time.
    const times = entries.map((e) => Date.parse(e.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    // Where each came from: the laptop's Chrome, the attacker's Firefox, the phone's Safari; nothing for the CLI.
    const first = entries[entries.length - 1];
    expect(first.browser).toEqual({ name: 'Chrome', version: '131', os: 'Windows' });
    const failed = entries.find((e) => e.kind === 'sign-in.failed')!;
    expect([failed.address, failed.browser?.name, failed.browser?.os]).toEqual([attackerAddress, 'Firefox', 'Linux']);
    const device = entries.find((e) => e.kind === 'sign-in.new-device')!;
    expect([device.browser?.name, device.browser?.os]).toEqual(['Safari', 'iOS']);
    expect(entries.find((e) => e.kind === 'account.unlocked')!.browser).toBeNull();
    const locked = entries.find((e) => e.kind === 'account.locked')!;
    expect(Date.parse(locked.detail.until!)).toBeGreaterThan(Date.parse(locked.at));
  });

  it('never reads a failed sign-in of a name no account has into anyone’s history', async () => {
    const before = await allRows();
    const stranger = clientFrom(s.url, freshAddress(), { 'user-agent': FIREFOX });
    for (let i = 0; i < 3; i++) expect((await stranger.login('nobody-here', WRONG)).status).not.toBe(200);
    const bogus = await stranger.req('POST', '/users/ajax/login', {
      body: { username: 'nobody-here', password: WRONG, captcha_pass: 'not-a-pass' },
    });
    expect(bogus.status).toBe(403);
    // With passes up to the lock of the name, and once more while it is locked.
    const passes = await solveSliders(s.ctx, s.url, 'ghost', 6);
    for (const pass of passes) {
      await stranger.req('POST', '/users/ajax/login', {
        body: { username: 'ghost', password: WRONG, captcha_pass: pass },
      });
    }
    expect((await stranger.login('ghost', WRONG)).status).toBe(423);
    expect(await allRows()).toEqual(before);
  });

  it('pages by keyset: every entry exactly once across pages while new ones arrive', async () => {
    const bob = await signedIn('bob');
    keepCookies(bob);
    const userId = s.users.bob.id;
    // 57 more entries, several in each millisecond.
    for (let i = 0; i < 57; i++) {
      if (i % 3 === 0) s.clock.advance(1);
      await s.ctx.events.emit({ type: 'sign-in.succeeded', method: 'password', to: { userId } });
    }
    const before = (await page(bob, '?limit=100')).json.entries as HistoryEntry[];
    expect(before).toHaveLength(58);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const a = await page(bob, `?limit=10${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(a.status, a.text).toBe(200);
      seen.push(...entriesOf(a).map((e) => e.id));
      cursor = a.json.next;
      pages++;
      // Newer entries arrive between pages: they are above the first page, so no later page repeats or skips one.
      s.clock.advance(1);
      await s.ctx.events.emit({ type: 'sign-in.failed', method: 'password', reason: 'wrong-password', to: { userId } });
    } while (cursor);
    expect(pages).toBe(6);
    expect(seen).toEqual(before.map((e) => e.id));
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('filters by group', async () => {
    const alice = await signedIn('alice', NEW_PASSWORD);
    keepCookies(alice);
    const groups: Record<string, HistoryKind[]> = {
      'sign-in': ['sign-in.succeeded', 'sign-in.failed', 'reauth.succeeded', 'reauth.failed'],
      lock: ['account.locked', 'account.unlocked'],
      password: ['password.changed'],
      email: ['email.changed'],
      device: ['sign-in.new-device'],
      credential: ['credential.created', 'credential.deleted'],
      session: ['session.ended', 'account.not-me'],
      'second-factor': [
        'second-factor.added',
        'second-factor.removed',
        'recovery-codes.generated',
        'recovery-code.used',
      ],
    };
    expect(Object.keys(groups).sort()).toEqual([...HISTORY_GROUPS].sort());
    const all = entriesOf(await page(alice, '?limit=100'));
    for (const [group, kinds] of Object.entries(groups)) {
      const a = await page(alice, `?group=${group}&limit=100`);
      expect(a.status, a.text).toBe(200);
      expect(entriesOf(a).map((e) => e.id)).toEqual(all.filter((e) => kinds.includes(e.kind)).map((e) => e.id));
    }
    expect(entriesOf(await page(alice, '?group=credential&limit=100')).map((e) => e.detail.credential)).toEqual([
      'packages-password',
      'ssh-key',
      'ssh-key',
      'token',
      'token',
    ]);
    expect((await page(alice, '?group=nonsense')).status).toBe(400);
  });

  it("shows each caller only their own history: another's entries and cursors are out of reach", async () => {
    const alice = await signedIn('alice', NEW_PASSWORD);
    const bob = await signedIn('bob');
    const carol = await signedIn('carol');
    [alice, bob, carol].forEach(keepCookies);
    const ids = (rows: AccountHistoryTable[], user: string) =>
      rows.filter((r) => r.user_id === s.users[user].id).map((r) => r.id);
    const rows = await allRows();
    for (const [name, c] of Object.entries({ alice, bob, carol })) {
      const mine = entriesOf(await page(c, '?limit=100')).map((e) => e.id);
      expect(mine.length).toBeGreaterThan(0);
      expect(new Set(mine)).toEqual(new Set(ids(rows, name)));
    }
    // Alice's cursor is worth nothing to Bob: 400 in his language, not Alice's entries.
    const aliceFirst = await page(alice, '?limit=2');
    const cursor = aliceFirst.json.next as string;
    const foreign = await bob.req('GET', `${SECURITY_PATHS.history}?cursor=${encodeURIComponent(cursor)}`, {
      headers: { 'accept-language': 'zh-CN' },
    });
    expect([foreign.status, foreign.json.code, foreign.json.message]).toEqual([
      400,
      'HistoryCursorInvalid',
      '该页历史记录已失效，请从第一页重新查看。',
    ]);
    const foreignEn = await bob.req('GET', `${SECURITY_PATHS.history}?cursor=${encodeURIComponent(cursor)}`, {
      headers: { 'accept-language': 'en-US' },
    });
    expect(foreignEn.json.message).toBe('This page of the history is no longer available; start from the first page.');
    // A cursor edited to point elsewhere, or made up, is refused too.
    const [position, signature] = cursor.split('.');
    const moved = Buffer.from(Buffer.from(position, 'base64url').toString().replace(/^\d/, '9')).toString('base64url');
    for (const bad of [`${moved}.${signature}`, `${position}.${signature.slice(1)}x`, 'abc', `${position}.`]) {
      const a = await alice.req('GET', `${SECURITY_PATHS.history}?cursor=${encodeURIComponent(bad)}`);
      expect([a.status, a.json.code], bad).toEqual([400, 'HistoryCursorInvalid']);
    }
    // Her own cursor works for her.
    expect((await page(alice, `?limit=2&cursor=${encodeURIComponent(cursor)}`)).status).toBe(200);
    // Nobody writes to it, and nobody reads it signed out.
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      for (const p of [SECURITY_PATHS.history, SECURITY_PATHS.historyExport]) {
        const a = await alice.req(method, p, { body: {} });
        expect(a.status, `${method} ${p}`).toBeGreaterThanOrEqual(400);
      }
    }
    const anonymous = new Client(s.url);
    expect((await page(anonymous)).status).toBe(401);
    expect((await anonymous.req('GET', SECURITY_PATHS.historyExport)).status).toBe(401);
    expect(await allRows()).toEqual(rows);
  });

  it('exports CSV: BOM, header and words in the caller’s language, the filter, formulas neutralised', async () => {
    const dave = await signedIn('dave');
    keepCookies(dave);
    // Names a spreadsheet would run as formulas, through the real token call.
    const evil = ['=HYPERLINK("http://evil.example","x")', '+1+1', '-2', '@SUM(A1)'];
    for (const name of evil) {
      const a = await dave.req('POST', TOKENS, {
        body: {
          name,
          description: 'csv',
          expires_at: new Date(s.clock.now().getTime() + DAY).toISOString(),
          token_scopes: ['base:user:read'],
        },
      });
      expect(a.status, a.text).toBe(200);
      secrets.add(a.json.token);
    }
    const en = await dave.req('GET', SECURITY_PATHS.historyExport, { headers: { 'accept-language': 'en-US' } });
    expect(en.status, en.text).toBe(200);
    expect(en.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(en.headers.get('content-disposition')).toMatch(
      /^attachment; filename="account-history-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    // fetch's text() drops a leading BOM: read the bytes.
    const raw = await fetch(`${s.url}${SECURITY_PATHS.historyExport}`, {
      headers: { cookie: dave.cookieHeader(), 'accept-language': 'en-US' },
    });
    const bytes = Buffer.from(await raw.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = en.text.replace(/^\ufeff/, '').split('\r\n');
    expect(lines[0]).toBe('"Time (UTC)","Event","Details","Name","IP address","Browser"');
    expect(lines.at(-1)).toBe('');
    expect(lines).toHaveLength(1 + 5 + 1);
    expect(lines[1]).toMatch(
      /^"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}","Credential created","Personal access token","'@SUM\(A1\)","[\d.]+","Chrome 131 on Windows"$/,
    );
    expect(lines[lines.length - 2]).toMatch(/"Signed in","Method: password","","[\d.]+","Chrome 131 on Windows"$/);
    // Every cell that would start a formula starts with an apostrophe; none starts with = + - @ as is.
    const cells = lines.flatMap((l) => l.match(/"(?:[^"]|"")*"/g) ?? []);
    for (const c of cells) expect(c).not.toMatch(/^"[=+\-@\t\r]/);
    // The names come back as they were given, after the apostrophe.
    const names = lines.slice(1, 5).map((l) => (l.match(/"(?:[^"]|"")*"/g) ?? [])[3].slice(1, -1).replace(/""/g, '"'));
    expect(names).toEqual([...evil].reverse().map((n) => `'${n}`));
    expect(en.text).toContain(`"Personal access token","'=HYPERLINK(""http://evil.example"",""x"")"`);

    const zh = await dave.req('GET', `${SECURITY_PATHS.historyExport}?group=sign-in`, {
      headers: { 'accept-language': 'zh-CN' },
    });
    expect(zh.status).toBe(200);
    const zhLines = zh.text.replace(/^\ufeff/, '').split('\r\n');
    expect(zhLines[0]).toBe('"时间（UTC）","事件","详情","名称","IP 地址","浏览器"');
    expect(zhLines.slice(1, -1)).toHaveLength(1);
    expect(zhLines[1]).toMatch(/"登录成功","方式：密码","","[\d.]+","Chrome 131（Windows）"$/);
    expect((await dave.req('GET', `${SECURITY_PATHS.historyExport}?group=bogus`)).status).toBe(400);
  });

  it('holds no secret: not in rows, answers, exports, the CLI or the log', async () => {
    const alice = await signedIn('alice', NEW_PASSWORD);
    keepCookies(alice);
    const mails = fs.existsSync(path.join(s.dataDir, 'outbox'))
      ? fs
          .readdirSync(path.join(s.dataDir, 'outbox'))
          .map((f) => fs.readFileSync(path.join(s.dataDir, 'outbox', f), 'utf8'))
      : [];
    // Whatever a mail carried as a secret: six-digit codes and the tokens of links.
    for (const m of mails) {
      for (const code of m.match(/\b\d{6}\b/g) ?? []) secrets.add(code);
      for (const t of m.match(/token=([\w-]{16,})/g) ?? []) secrets.add(t.slice('token='.length));
    }
    const texts = [
      JSON.stringify(await allRows()),
      (await page(alice, '?limit=100')).text,
      (await alice.req('GET', SECURITY_PATHS.historyExport)).text,
      (await adminOn(s, 'history', '--username', 'alice', '--limit', '1000')).out,
      (await adminOn(s, 'history', '--username', 'alice', '--json')).out,
      s.logs.join('\n'),
    ];
    expect(secrets.size).toBeGreaterThan(10);
    for (const secret of secrets) {
      if (secret.length < 6) continue;
      for (const [i, t] of texts.entries()) expect(t.includes(secret), `${secret} in text ${i}`).toBe(false);
    }
  });

  it('the admin CLI prints a member’s history newest first, by group and limit', async () => {
    const alice = await signedIn('alice', NEW_PASSWORD);
    const [newest] = entriesOf(await page(alice));
    const all = await adminOn(s, 'history', '--username', 'alice', '--limit', '3');
    expect(all.code, all.err).toBe(0);
    const lines = all.out.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe(
      `${newest.at.slice(0, 19).replace('T', ' ')}  Signed in  Method: password  ${home('alice')}  Chrome 131 on Windows`,
    );
    const locks = await adminOn(s, 'history', '--username', 'ALICE', '--group', 'lock', '--json');
    expect((JSON.parse(locks.out) as HistoryEntry[]).map((e) => e.kind)).toEqual([
      'account.unlocked',
      'account.locked',
    ]);
    expect((await adminOn(s, 'history', '--username', 'nobody')).code).toBe(1);
    expect((await adminOn(s, 'history', '--username', 'alice', '--group', 'x')).code).toBe(2);
    expect((await adminOn(s, 'history', '--username', 'alice', '--limit', '0')).code).toBe(2);
    expect((await adminOn(s, 'history', '--username', 'bob', '--group', 'email')).out).toBe(
      'bob has no history in email',
    );
  });

  it('keeps 90 days: older entries leave the page at once and the table at the purge', async () => {
    const carolId = s.users.carol.id;
    const oldest = (await allRows()).filter((r) => r.user_id === carolId);
    expect(oldest.length).toBeGreaterThan(0);
    s.clock.advance(89 * DAY);
    const carol = await signedIn('carol');
    keepCookies(carol);
    const recent = entriesOf(await page(carol, '?limit=100'));
    expect(recent.length).toBe(oldest.length + 1);
    // Two days on (the session has ended by then: a new one), the entries of 91 days ago are no longer shown, though
    // the purge has not run yet.
    s.clock.advance(2 * DAY);
    const again = await signedIn('carol');
    keepCookies(again);
    const later = entriesOf(await page(again, '?limit=100'));
    expect(later.slice(1).map((e) => e.id)).toEqual([recent[0].id]);
    expect((await allRows()).filter((r) => r.user_id === carolId)).toHaveLength(oldest.length + 2);
    expect((await again.req('GET', SECURITY_PATHS.historyExport)).text.split('\r\n')).toHaveLength(1 + 2 + 1);
    // The purge deletes them: nothing older than 90 days is kept, for anyone.
    await s.app.purge();
    const left = await allRows();
    const cutoff = s.clock.now().getTime() - 90 * DAY;
    expect(left.every((r) => Number(r.at) >= cutoff)).toBe(true);
    expect(
      left
        .filter((r) => r.user_id === carolId)
        .map((r) => r.id)
        .sort(),
    ).toEqual(later.map((e) => e.id).sort());
  });
});
