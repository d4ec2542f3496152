import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testCli } from '../kit/cli';
import { startSlapd, type TestDirectory } from '../kit/slapd';

const ENV_NAME = 'DIRECTORY_CLI_TEST_BIND';

describe('admin CLI: directories (a real slapd)', () => {
  const cli = testCli('account-cli-directory-');
  let directory: TestDirectory;
  const outputs: string[] = [];
  const run = async (...argv: string[]) => {
    const r = await cli.run(...argv);
    outputs.push(r.out, r.err);
    return r;
  };
  let base: string[];
  beforeAll(async () => {
    directory = await startSlapd();
    process.env[ENV_NAME] = directory.ldap.bindPassword;
    base = ['--url', directory.url, '--bind-dn', directory.ldap.bindDn, '--base-dn', directory.ldap.baseDn];
  });
  afterAll(async () => {
    delete process.env[ENV_NAME];
    await directory?.close();
    cli.close();
  });

  it('names the option and the problem of a wrong configuration, and stores nothing', async () => {
    const wrong: Array<[string[], RegExp]> = [
      [
        ['--kind', 'ldap', ...base, '--bind-password-env', 'NOT_SET_ANYWHERE_42'],
        /--bind-password-env: .*NOT_SET_ANYWHERE_42 is not set/,
      ],
      [['--kind', 'ldap', ...base], /--bind-password-file PATH or --bind-password-env NAME is required/],
      [
        ['--kind', 'ldap', ...base, '--bind-password-file', 'relative/file'],
        /--bind-password-file must be an absolute path/,
      ],
      [
        ['--kind', 'ldap', ...base, '--bind-password-file', '/nonexistent/x'],
        /--bind-password-file: cannot read \/nonexistent\/x/,
      ],
      [
        ['--kind', 'ldap', ...base.map((a) => (a === directory.url ? 'http://x' : a)), '--bind-password-env', ENV_NAME],
        /--url must be ldap:\/\//,
      ],
      [
        ['--kind', 'ldap', ...base, '--bind-password-env', ENV_NAME, '--user-filter', '(uid=*'],
        /--user-filter is not an LDAP filter/,
      ],
      [['--kind', 'ldap', ...base, '--bind-password-env', ENV_NAME, '--login-attr', 'uid)(x'], /--login-attr must be/],
      [
        ['--kind', 'ldap', ...base, '--bind-password-env', ENV_NAME, '--timeout-ms', '60000'],
        /--timeout-ms must be an integer from/,
      ],
      [
        ['--kind', 'ldap', ...base, '--bind-password-env', ENV_NAME, '--org', 'No Such Org'],
        /--org: organisation "No Such Org" does not exist/,
      ],
      [
        [
          '--kind',
          'ldap',
          ...base.map((a) => (a === directory.url ? directory.url.replace('ldap:', 'ldaps:') : a)),
          '--bind-password-env',
          ENV_NAME,
          '--start-tls',
        ],
        /--start-tls is for ldap:\/\/ URLs/,
      ],
    ];
    for (const [args, problem] of wrong) {
      const r = await run('set-directory', ...args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.err).toMatch(problem);
    }
    const kind = await run('set-directory', '--kind', 'novell', ...base, '--bind-password-env', ENV_NAME);
    expect(kind.code).toBe(2);
    expect(kind.err).toMatch(/--kind must be one of ldap, ad/);
    expect((await run('show-directory')).out).toBe('no directory is configured (set-directory)');
  });

  it('stores a directory with the password by reference, shows it without the password, and tests a name', async () => {
    const secretFile = path.join(cli.dir, 'bind-password');
    fs.writeFileSync(secretFile, `${directory.ldap.bindPassword}\n`);
    const set = await run(
      'set-directory',
      '--kind',
      'ldap',
      ...base,
      '--bind-password-file',
      secretFile,
      '--user-filter',
      directory.ldap.userFilter,
      '--display-name',
      'Example LDAP',
    );
    expect(set.code, set.err).toBe(0);
    expect(set.out).toContain(
      `enabled Example LDAP (ldap) ${directory.url} for the instance; bind password from file ${secretFile}`,
    );
    const show = await run('show-directory');
    expect(show.out).toContain('Example LDAP (ldap) — instance, enabled');
    expect(show.out).toContain(`password from file ${secretFile}`);
    const test = await run('test-directory', '--kind', 'ldap', '--username', 'lin');
    expect(test.code, test.err).toBe(0);
    expect(test.out).toContain(`dn: ${directory.ldap.users.lin.dn}`);
    expect(test.out).toContain('name: Lin Wei');
    expect(test.out).toContain('e-mail: lin@example.org');
    // The disabled person is not found through the configured filter; a wildcard finds nobody.
    for (const name of ['ghost', 'lin*', '*']) {
      const r = await run('test-directory', '--kind', 'ldap', '--username', name);
      expect(r.code, name).toBe(1);
      expect(r.out).toContain(`no single person matches "${name}"`);
    }
  });

  it('says so when the directory is down or no such directory exists', async () => {
    const none = await run('test-directory', '--kind', 'ad', '--username', 'kwan');
    expect(none.code).toBe(1);
    expect(none.err).toMatch(/no ad directory is configured/);
    await directory.stop();
    try {
      const down = await run('test-directory', '--kind', 'ldap', '--username', 'lin');
      expect(down.code).toBe(1);
      expect(down.err).toMatch(/test-directory: cannot bind to ldap:\/\/127\.0\.0\.1:\d+ as cn=reader/);
    } finally {
      await directory.restart();
    }
  });

  it('never prints a bind password', () => {
    const all = outputs.join('\n');
    expect(all).not.toContain(directory.ldap.bindPassword);
  });
});
