import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testCli } from '../../tests/kit/cli';
import { USAGE } from './admin';

const cli = testCli('account-org-cli-');
const { run } = cli;

/** The organisation as `show-org --json` prints it. */
async function show(org = 'Acme') {
  const r = await run('show-org', '--org', org, '--json');
  expect(r.code, r.err).toBe(0);
  return JSON.parse(r.out) as {
    ipWhitelist: string[] | null;
    licenceExpiresAt: number | null;
    orderExpiresAt: number | null;
    members: Array<{ username: string; role: string }>;
  };
}

describe('admin CLI: organisation policies and members', () => {
  beforeAll(async () => {
    expect((await run('create-org', '--name', 'Acme')).code).toBe(0);
    expect((await run('create-user', '--username', 'alice', '--password', 'Secret#123', '--org', 'Acme')).code).toBe(0);
    expect((await run('create-user', '--username', 'bob', '--password', 'Secret#123')).code).toBe(0);
  });
  afterAll(() => cli.close());

  it('lists the organisation commands in the usage, beside the existing ones', async () => {
    for (const c of ['create-user', 'bind-idp', 'set-ip-whitelist', 'set-licence', 'set-order-expiry']) {
      expect(USAGE).toContain(c);
    }
    const help = await run('help');
    for (const c of ['set-org-admin', 'add-member', 'remove-member', 'show-org']) expect(help.out).toContain(c);
  });

  it('sets, canonicalises and clears the IP whitelist', async () => {
    const set = await run(
      'set-ip-whitelist',
      '--org',
      'acme',
      '--cidrs',
      '10.0.0.0/8, 2001:DB8::/32,::ffff:192.168.1.0/120',
    );
    expect(set.code, set.err).toBe(0);
    expect(set.out).toBe('acme: requests are accepted only from 10.0.0.0/8, 2001:db8::/32, 192.168.1.0/24');
    expect((await show()).ipWhitelist).toEqual(['10.0.0.0/8', '2001:db8::/32', '192.168.1.0/24']);
    // A list that admits nobody (not even this machine) can still be changed: the CLI does not go through HTTP.
    expect((await run('set-ip-whitelist', '--org', 'Acme', '--cidrs', '192.0.2.1/32')).code).toBe(0);
    const cleared = await run('set-ip-whitelist', '--org', 'Acme', '--cidrs', '');
    expect(cleared.code).toBe(0);
    expect(cleared.out).toBe('Acme: IP whitelist cleared; requests are accepted from any address');
    expect((await show()).ipWhitelist).toBeNull();
  });

  it('refuses a malformed list, naming every bad entry, and changes nothing', async () => {
    expect((await run('set-ip-whitelist', '--org', 'Acme', '--cidrs', '10.0.0.0/8')).code).toBe(0);
    const cases: Array<[string, RegExp]> = [
      ['10.0.0.0/8,10.0.0.0/33', /"10\.0\.0\.0\/33" \(the prefix length must be 0 to 32\)/],
      ['2001:db8::/129', /"2001:db8::\/129" \(the prefix length must be 0 to 128\)/],
      ['300.1.1.1/8', /"300\.1\.1\.1\/8" \(not an IPv4 or IPv6 address\)/],
      ['10.1.2.3/8', /"10\.1\.2\.3\/8" \(it has host bits set \(the network is 10\.0\.0\.0\/8\)\)/],
      ['fe80::1%eth0', /"fe80::1%eth0" \(zone ids/],
      ['intranet, 10.0.0.0/8, 10.0.0.0/', /malformed CIDR entries "intranet" \(.*\), "10\.0\.0\.0\/" \(.*\)/],
    ];
    for (const [cidrs, message] of cases) {
      const r = await run('set-ip-whitelist', '--org', 'Acme', '--cidrs', cidrs);
      expect(r.code, cidrs).toBe(1);
      expect(r.err, cidrs).toMatch(/^set-ip-whitelist: malformed CIDR entr/);
      expect(r.err, cidrs).toMatch(message);
      expect(r.err, cidrs).toContain('nothing was changed');
    }
    expect((await show()).ipWhitelist).toEqual(['10.0.0.0/8']);
    const missing = await run('set-ip-whitelist', '--org', 'Acme');
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('missing --cidrs');
    expect((await run('set-ip-whitelist', '--org', 'Acme', '--cidrs', '')).code).toBe(0);
  });

  it('sets and clears the licence and the order expiry by last valid day (UTC)', async () => {
    const lic = await run('set-licence', '--org', 'Acme', '--expires', '2026-03-10');
    expect(lic.out).toBe('Acme: the licence is valid through 2026-03-10');
    const order = await run('set-order-expiry', '--org', 'Acme', '--expires', '2026-12-31');
    expect(order.out).toBe('Acme: the order is valid through 2026-12-31');
    expect(await show()).toMatchObject({
      licenceExpiresAt: Date.UTC(2026, 2, 11),
      orderExpiresAt: Date.UTC(2027, 0, 1),
    });
    const human = await run('show-org', '--org', 'Acme');
    expect(human.out).toContain('licence: valid through 2026-03-10');
    expect(human.out).toContain('order: valid through 2026-12-31');
    for (const bad of ['2026-02-30', '10/03/2026', 'soon']) {
      const r = await run('set-licence', '--org', 'Acme', '--expires', bad);
      expect(r.code, bad).toBe(1);
      expect(r.err).toContain(`set-licence: "${bad}" is not a date: use YYYY-MM-DD`);
    }
    expect((await run('set-licence', '--org', 'Acme', '--expires', 'none')).out).toBe(
      'Acme: the licence never expires',
    );
    expect((await run('set-order-expiry', '--org', 'Acme', '--expires', 'none')).out).toBe(
      'Acme: the order never expires',
    );
    expect(await show()).toMatchObject({ licenceExpiresAt: null, orderExpiresAt: null });
    expect((await run('set-licence', '--org', 'Acme')).code).toBe(2);
  });

  it('adds members, makes and unmakes admins, removes members', async () => {
    expect((await run('add-member', '--org', 'Acme', '--username', 'bob')).out).toBe('bob joined Acme');
    expect((await run('add-member', '--org', 'Acme', '--username', 'BOB')).out).toBe('BOB is already a member of Acme');
    expect((await run('set-org-admin', '--org', 'Acme', '--username', 'bob')).out).toBe(
      'bob is an administrator of Acme',
    );
    expect((await show()).members).toEqual([
      expect.objectContaining({ username: 'bob', role: 'admin' }),
      expect.objectContaining({ username: 'alice', role: 'member' }),
    ]);
    expect((await run('set-org-admin', '--org', 'Acme', '--username', 'bob', '--revoke')).out).toBe(
      'bob is a member (not an administrator) of Acme',
    );
    expect((await run('remove-member', '--org', 'Acme', '--username', 'bob')).out).toBe('bob left Acme');
    const again = await run('remove-member', '--org', 'Acme', '--username', 'bob');
    expect([again.code, again.err]).toEqual([1, 'remove-member: user "bob" is not a member of "Acme"']);
    // set-org-admin joins a user who is not a member yet.
    expect((await run('set-org-admin', '--org', 'Acme', '--username', 'bob')).out).toBe(
      'bob is an administrator of Acme (added as a member)',
    );
    expect((await show()).members.map((m) => `${m.username}:${m.role}`)).toEqual(['bob:admin', 'alice:member']);
  });

  it('makes a member an administrator of an installed app, and takes it back', async () => {
    expect((await run('install-app', '--org', 'Acme', '--app', 'codeup')).code).toBe(0);
    const set = ['set-app-admin', '--org', 'Acme', '--app', 'codeup', '--username', 'alice'];
    expect((await run(...set)).out).toBe('alice is an administrator of codeup in Acme');
    expect((await run(...set)).out).toBe('alice is an administrator of codeup in Acme (already)');
    expect((await run(...set, '--revoke')).out).toBe('alice is no longer an administrator of codeup in Acme');
    expect((await run(...set, '--revoke')).out).toBe(
      'alice was not an administrator of codeup in Acme; nothing changed',
    );
    const notInstalled = await run('set-app-admin', '--org', 'Acme', '--app', 'flow', '--username', 'alice');
    expect([notInstalled.code, notInstalled.err]).toEqual([1, 'set-app-admin: app "flow" is not installed in "Acme"']);
    expect((await run('create-user', '--username', 'carol', '--password', 'Secret#123')).code).toBe(0);
    const outsider = await run('set-app-admin', '--org', 'Acme', '--app', 'codeup', '--username', 'carol');
    expect([outsider.code, outsider.err]).toEqual([1, 'set-app-admin: user "carol" is not a member of "Acme"']);
    expect((await run('set-app-admin', '--org', 'Acme', '--username', 'alice')).code).toBe(2);
  });

  it('refuses an unknown organisation or user clearly', async () => {
    const cases: Array<[string[], string]> = [
      [['set-ip-whitelist', '--org', 'Nope', '--cidrs', '10.0.0.0/8'], 'organisation "Nope" does not exist'],
      [['set-licence', '--org', 'Nope', '--expires', '2026-01-01'], 'organisation "Nope" does not exist'],
      [['set-order-expiry', '--org', 'Nope', '--expires', 'none'], 'organisation "Nope" does not exist'],
      [['set-org-admin', '--org', 'Nope', '--username', 'alice'], 'organisation "Nope" does not exist'],
      [['add-member', '--org', 'Nope', '--username', 'alice'], 'organisation "Nope" does not exist'],
      [['remove-member', '--org', 'Nope', '--username', 'alice'], 'organisation "Nope" does not exist'],
      [['show-org', '--org', 'Nope'], 'organisation "Nope" does not exist'],
      [['add-member', '--org', 'Acme', '--username', 'nobody'], 'user "nobody" does not exist'],
      [['set-org-admin', '--org', 'Acme', '--username', 'nobody'], 'user "nobody" does not exist'],
      [['remove-member', '--org', 'Acme', '--username', 'nobody'], 'user "nobody" does not exist'],
    ];
    for (const [argv, message] of cases) {
      const r = await run(...argv);
      expect(r.code, argv.join(' ')).toBe(1);
      expect(r.err).toBe(`${argv[0]}: ${message}`);
    }
    expect((await run('add-member', '--org', 'Acme')).code).toBe(2);
  });
});

describe('admin CLI: the second-factor requirement', () => {
  const DAY = 24 * 60 * 60 * 1000;
  const policy = async () => (await show('Secure')) as unknown as { secondFactor: Record<string, number> | null };
  /** Gives a member a second factor as the security page would leave it: a confirmed app, or a passkey. */
  const enrol = (username: string, factor: 'totp' | 'webauthn' | 'unconfirmed') => {
    const db = new SQLite(path.join(cli.dir, 'account.db'));
    try {
      const { id } = db.prepare('SELECT id FROM users WHERE username_lower = ?').get(username) as { id: string };
      if (factor === 'webauthn')
        db.prepare(
          'INSERT INTO webauthn_credentials (id, user_id, credential_id, public_key, name, created_at) VALUES (?, ?, ?, ?, ?, ?)',
        ).run(`pk-${id}`, id, `cred-${id}`, 'key', 'My key', Date.now());
      else
        db.prepare('INSERT INTO totp_factors (user_id, confirmed_at, created_at) VALUES (?, ?, ?)').run(
          id,
          factor === 'totp' ? Date.now() : null,
          Date.now(),
        );
    } finally {
      db.close();
    }
  };

  beforeAll(async () => {
    expect((await run('create-org', '--name', 'Secure')).code).toBe(0);
    for (const u of ['dora', 'erin', 'fred', 'gina']) {
      const r = await run('create-user', '--username', u, '--password', 'Secret#123', '--org', 'Secure');
      expect(r.code, r.err).toBe(0);
    }
    enrol('erin', 'totp');
    enrol('fred', 'webauthn');
    // An app set up but never confirmed is no second factor.
    enrol('gina', 'unconfirmed');
  });

  it('is listed in the help', async () => {
    expect((await run('help')).out).toContain('require-second-factor --org NAME [--grace-days N] | --off');
  });

  it('requires a second factor with a grace period, naming the members without one', async () => {
    const before = Date.now();
    const r = await run('require-second-factor', '--org', 'secure', '--grace-days', '14');
    expect(r.code, r.err).toBe(0);
    const lines = r.out.split('\n');
    expect(lines[0]).toMatch(
      /^Secure: members must have a second factor \(an authenticator app or a passkey\); those without one are refused from \d{4}-\d\d-\d\d \d\d:\d\d UTC \(14 day\(s\) of grace\)$/,
    );
    expect(lines[1]).toBe('  2 of 4 member(s) have no second factor: dora, gina');
    const p = (await policy()).secondFactor!;
    expect(p.requiredAt).toBeGreaterThanOrEqual(before);
    expect(p).toEqual({ requiredAt: p.requiredAt, graceDays: 14, enforcedFrom: p.requiredAt + 14 * DAY });
    expect((await run('show-org', '--org', 'Secure')).out).toContain(
      `second factor: required since ${new Date(p.requiredAt).toISOString().slice(0, 16).replace('T', ' ')} UTC; members without one refused from`,
    );

    // Again with another grace: the start stays, so only the day it starts refusing moves.
    const again = await run('require-second-factor', '--org', 'Secure', '--grace-days', '30');
    expect(again.out).toContain('(30 day(s) of grace) (required since');
    expect((await policy()).secondFactor).toEqual({
      requiredAt: p.requiredAt,
      graceDays: 30,
      enforcedFrom: p.requiredAt + 30 * DAY,
    });
    // Without a grace: members without one are refused at once.
    const now = await run('require-second-factor', '--org', 'Secure');
    expect(now.out.split('\n')[0]).toMatch(/those without one are refused now \(required since/);
    expect((await policy()).secondFactor).toMatchObject({ graceDays: 0, enforcedFrom: p.requiredAt });
  });

  it('refuses a bad grace period and changes nothing', async () => {
    const kept = (await policy()).secondFactor;
    for (const bad of ['91', '-1', '2.5', 'two weeks', '']) {
      const r = await run('require-second-factor', '--org', 'Secure', `--grace-days=${bad}`);
      expect(r.code, bad).toBe(1);
      expect(r.err, bad).toMatch(/^require-second-factor: .*days.*; nothing was changed/);
    }
    const both = await run('require-second-factor', '--org', 'Secure', '--off', '--grace-days', '3');
    expect([both.code, both.err.split('\n')[0]]).toEqual([2, 'require-second-factor: --off takes no --grace-days']);
    const nope = await run('require-second-factor', '--org', 'Nope', '--grace-days', '3');
    expect([nope.code, nope.err]).toEqual([1, 'require-second-factor: organisation "Nope" does not exist']);
    expect((await run('require-second-factor')).code).toBe(2);
    expect((await policy()).secondFactor).toEqual(kept);
  });

  it('says when every member has one', async () => {
    enrol('dora', 'webauthn');
    const r = await run('require-second-factor', '--org', 'Secure', '--grace-days', '7');
    expect(r.out.split('\n')[1]).toBe('  1 of 4 member(s) have no second factor: gina');
  });

  it('--off lifts the requirement; lifting it twice says nothing changed', async () => {
    const off = await run('require-second-factor', '--org', 'Secure', '--off');
    expect([off.code, off.out]).toEqual([0, 'Secure: a second factor is no longer required']);
    expect((await policy()).secondFactor).toBeNull();
    expect((await run('show-org', '--org', 'Secure')).out).toContain('second factor: not required');
    expect((await run('require-second-factor', '--org', 'Secure', '--off')).out).toBe(
      'Secure: a second factor was not required; nothing changed',
    );
  });
});
