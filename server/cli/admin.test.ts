import { afterAll, describe, expect, it } from 'vitest';
import { testCli } from '../../tests/kit/cli';
import { migrateToLatest, openDatabase } from '../db/index';
import { LoginLockout } from '../auth/lockout';
import { systemClock } from '../clock';

const cli = testCli('account-cli-');
const { run, dir } = cli;

describe('admin CLI', () => {
  afterAll(() => cli.close());

  it('creates organisations, installs apps, creates and lists users', async () => {
    expect((await run('create-org', '--name', 'Acme')).code).toBe(0);
    expect((await run('create-org', '--name', 'acme')).code).toBe(1);
    expect((await run('install-app', '--org', 'Acme', '--app', 'codeup')).code).toBe(0);
    const u = await run(
      'create-user',
      '--username',
      'Alice',
      '--password',
      'Secret#123',
      '--email',
      'a@example.com',
      '--org',
      'Acme',
      '--must-change-password',
    );
    expect(u.code).toBe(0);
    expect(u.out).toContain('must change password');
    expect((await run('create-user', '--username', 'alice', '--password', 'Secret#123')).err).toContain(
      'already exists',
    );
    expect((await run('create-user', '--username', 'weak', '--password', 'short')).code).toBe(1);
    const list = await run('list-users', '--json');
    const users = JSON.parse(list.out);
    expect(users).toEqual([
      expect.objectContaining({ username: 'Alice', email: 'a@example.com', orgs: ['Acme'], must_change_password: 1 }),
    ]);
  });

  it('unlocks a locked name', async () => {
    const database = await openDatabase({ dataDir: dir });
    await migrateToLatest(database.db);
    const lockout = new LoginLockout(database.db, systemClock);
    for (let i = 0; i < 5; i++) await lockout.reserve('alice', true);
    expect(await lockout.isLocked('alice')).toBe(true);
    expect((await run('unlock-user', '--username', 'ALICE')).out).toBe('unlocked ALICE');
    expect(await lockout.isLocked('alice')).toBe(false);
    await database.close();
  });

  it('binds third-party and identity-provider accounts as real rows', async () => {
    expect(
      (await run('bind-identity', '--username', 'alice', '--provider', 'dingtalk', '--open-id', 'ding-1')).out,
    ).toBe('bound alice to DingTalk account ding-1');
    // Binding again replaces the account of that provider.
    expect(
      (await run('bind-identity', '--username', 'alice', '--provider', 'dingtalk', '--open-id', 'ding-2')).code,
    ).toBe(0);
    expect((await run('bind-idp', '--username', 'alice', '--name', 'Corp LDAP')).out).toContain('Corp LDAP as Alice');
    expect((await run('bind-identity', '--username', 'alice', '--provider', 'idp', '--open-id', 'x')).code).toBe(2);
    expect((await run('bind-identity', '--username', 'nobody', '--provider', 'feishu', '--open-id', 'f')).code).toBe(1);
    const database = await openDatabase({ dataDir: dir });
    const rows = await database.db
      .selectFrom('identities')
      .select(['provider', 'open_id', 'name'])
      .orderBy('provider')
      .execute();
    expect(rows).toEqual([
      { provider: 'dingtalk', open_id: 'ding-2', name: 'DingTalk' },
      { provider: 'idp', open_id: 'Alice', name: 'Corp LDAP' },
    ]);
    await database.close();
    expect((await run('unbind-identity', '--username', 'alice', '--provider', 'dingtalk')).out).toContain('removed 1');
    expect((await run('unbind-identity', '--username', 'alice', '--provider', 'dingtalk')).out).toContain(
      'nothing removed',
    );
  });

  it('explains usage mistakes', async () => {
    expect((await run()).code).toBe(2);
    expect((await run('create-user', '--username', 'x')).err).toContain('missing --password');
    expect((await run('frobnicate')).err).toContain('unknown command');
    expect((await run('create-org', '--bogus', 'x')).code).toBe(2);
  });
});
