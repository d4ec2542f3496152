import { afterAll, describe, expect, it } from 'vitest';
import { testCli } from '../../tests/kit/cli';
import { USAGE } from './admin';
import { discoverServerPlugins } from '../plugin-loader';
import { defineServerPlugin } from '../plugin';
import { listUsers } from '../services/accounts';

const cli = testCli('account-cli-slices-');
afterAll(() => cli.close());

// A slice contributing one command the way a real one would (defineServerPlugin({ cli })).
const counter = defineServerPlugin({
  id: 'counter',
  cli: [
    {
      name: 'count-users',
      usage: 'count-users [--prefix P]               (how many accounts there are)',
      options: { prefix: { type: 'string' } },
      async run({ values, deps, io }) {
        const users = await listUsers(deps.db);
        io.out(`${(values.prefix as string | undefined) ?? ''}${users.length}`);
        return 0;
      },
    },
  ],
});

const run = cli.runWith;

describe('admin CLI commands of server slices', () => {
  it("prints the core usage and the real slices' commands", async () => {
    const out = (await run(undefined, 'help')).out;
    for (const line of USAGE.split('\n')) expect(out).toContain(line);
    expect(out).toContain('  send-notice --org NAME --title TITLE --body BODY');
  });

  it("lists and runs a slice's command with the service's database", async () => {
    const plugins = [...(await discoverServerPlugins()), counter];
    const help = (await run(plugins, 'help')).out;
    expect(help).toContain('  count-users [--prefix P]');
    expect(help.indexOf('unbind-identity')).toBeLessThan(help.indexOf('count-users'));
    expect((await run(plugins, 'create-user', '--username', 'carol', '--password', 'Secret#123')).code).toBe(0);
    expect(await run(plugins, 'count-users', '--prefix', 'n=')).toMatchObject({ code: 0, out: 'n=1' });
    // Without the slice the command does not exist.
    expect((await run(undefined, 'count-users')).code).toBe(2);
  });

  it('refuses a slice command that reuses a core name', async () => {
    const clash = defineServerPlugin({ id: 'clash', cli: [{ ...counter.cli[0], name: 'create-org' }] });
    await expect(run([clash], 'help')).rejects.toThrow(/"create-org" of plugin "clash" is already defined/);
  });
});
