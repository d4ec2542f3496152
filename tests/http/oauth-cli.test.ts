import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { testCli } from '../kit/cli';
import { OAUTH_PROVIDER_DEFAULTS } from '../../plugins/login/server/oauth';

const SECRET = 'cli-client-secret-7Qw!';
const ENV_NAME = 'OAUTH_CLI_TEST_SECRET';

describe('admin CLI: third-party sign-in providers', () => {
  const cli = testCli('account-cli-oauth-');
  const secretFile = path.join(cli.dir, 'lark-secret');
  fs.writeFileSync(secretFile, `${SECRET}\n`);
  process.env[ENV_NAME] = SECRET;
  afterAll(() => {
    delete process.env[ENV_NAME];
    cli.close();
  });
  const outputs: string[] = [];
  const run = async (...argv: string[]) => {
    const r = await cli.run(...argv);
    outputs.push(r.out, r.err);
    return r;
  };

  it('lists the commands in help', async () => {
    const help = (await run('help')).out;
    expect(help).toContain('set-oauth-provider --provider dingtalk|lark|wecom --client-id ID');
    expect(help).toContain('show-oauth-providers');
  });

  it('shows that nothing is configured yet', async () => {
    expect((await run('show-oauth-providers')).out).toBe('no third-party sign-in configured');
  });

  it('refuses an unknown provider as a usage error and a missing --provider', async () => {
    const r = await run(
      'set-oauth-provider',
      '--provider',
      'github',
      '--client-id',
      'x',
      '--client-secret-env',
      ENV_NAME,
    );
    expect(r.code).toBe(2);
    expect(r.err).toContain('--provider must be one of dingtalk, lark, wecom, got "github"');
    expect(r.err).toContain('Usage:');
    expect((await run('set-oauth-provider', '--client-id', 'x')).code).toBe(2);
  });

  it('names the option and the problem in configuration errors (exit 1)', async () => {
    const base = ['set-oauth-provider', '--provider', 'dingtalk'];
    const cases: [string[], string][] = [
      [['--client-secret-env', ENV_NAME], '--client-id is required'],
      [['--client-id', 'ding-app'], '--client-secret-file PATH or --client-secret-env NAME is required'],
      [['--client-id', 'ding-app', '--client-secret-env', 'OAUTH_CLI_UNSET_VAR'], 'OAUTH_CLI_UNSET_VAR is not set'],
      [
        ['--client-id', 'ding-app', '--client-secret-file', 'relative/path'],
        '--client-secret-file must be an absolute path',
      ],
      [['--client-id', 'ding-app', '--client-secret-file', secretFile, '--client-secret-env', ENV_NAME], 'not both'],
      [
        ['--client-id', 'ding-app', '--client-secret-env', ENV_NAME, '--token-url', 'http://idp.example.com/token'],
        '--token-url must be an https URL (http only on 127.0.0.1 or localhost), got "http://idp.example.com/token"',
      ],
      [
        ['--client-id', 'ding-app', '--client-secret-env', ENV_NAME, '--authorize-url', 'not a url'],
        '--authorize-url must be a URL without spaces',
      ],
      [
        [
          '--client-id',
          'ding-app',
          '--client-secret-env',
          ENV_NAME,
          '--userinfo-url',
          'https://u:p@idp.example.com/me',
        ],
        '--userinfo-url must not carry a user name or password',
      ],
      [['--client-id', 'ding-app', '--client-secret-env', ENV_NAME, '--id-field', 'a..b'], '--id-field must be'],
      [['--client-id', 'ding-app', '--client-secret-env', ENV_NAME, '--scope', 'a\tb'], '--scope must be'],
      [['--client-id', 'ding app', '--client-secret-env', ENV_NAME], '--client-id must be'],
    ];
    for (const [args, message] of cases) {
      const r = await run(...base, ...args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.err).toContain(`set-oauth-provider: `);
      expect(r.err).toContain(message);
    }
    expect((await run('show-oauth-providers')).out).toBe('no third-party sign-in configured');
  });

  it('configures a provider with the documented defaults and shows where the secret is, never the secret', async () => {
    const r = await run(
      'set-oauth-provider',
      '--provider',
      'dingtalk',
      '--client-id',
      'ding-app',
      '--client-secret-env',
      ENV_NAME,
    );
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe(`configured dingtalk sign-in (enabled); client secret from environment variable ${ENV_NAME}`);
    const lark = await run(
      'set-oauth-provider',
      '--provider',
      'lark',
      '--client-id',
      'cli_a1',
      '--client-secret-file',
      secretFile,
    );
    expect(lark.code, lark.err).toBe(0);
    const show = (await run('show-oauth-providers')).out;
    const d = OAUTH_PROVIDER_DEFAULTS.dingtalk;
    expect(show).toContain('dingtalk: enabled');
    expect(show).toContain('  client id:     ding-app');
    expect(show).toContain(`  client secret: environment variable ${ENV_NAME}`);
    for (const v of [d.authorizeUrl, d.tokenUrl, d.userinfoUrl, 'id field:      unionId', 'name field:    nick']) {
      expect(show).toContain(v);
    }
    expect(show).toContain('lark: enabled');
    expect(show).toContain(`  client secret: file ${secretFile}`);
    expect(show).toContain('https://open.feishu.cn/open-apis/authen/v2/oauth/token');
    expect(show).toContain('id field:      data.open_id');
    // Listed in the fixed order.
    expect(show.indexOf('dingtalk:')).toBeLessThan(show.indexOf('lark:'));
  });

  it('updates only what is given (upsert by provider), disables and re-enables', async () => {
    const r = await run('set-oauth-provider', '--provider', 'dingtalk', '--scope', 'openid corpid', '--disable');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('updated dingtalk sign-in (disabled)');
    let show = (await run('show-oauth-providers')).out;
    expect(show).toContain('dingtalk: disabled');
    expect(show).toContain('  client id:     ding-app');
    expect(show).toContain('  scope:         openid corpid');
    expect(show).toContain(`  client secret: environment variable ${ENV_NAME}`);

    const local = await run(
      'set-oauth-provider',
      '--provider',
      'dingtalk',
      '--token-url',
      'http://127.0.0.1:9/token',
      '--userinfo-url',
      'http://localhost:9/me',
    );
    expect(local.code, local.err).toBe(0);
    show = (await run('show-oauth-providers')).out;
    expect(show).toContain('dingtalk: enabled');
    expect(show).toContain('http://127.0.0.1:9/token');
    expect(show.match(/^dingtalk:/gm)).toHaveLength(1);
  });

  it('refuses to enable a provider whose stored secret cannot be read any more', async () => {
    delete process.env[ENV_NAME];
    try {
      const r = await run('set-oauth-provider', '--provider', 'dingtalk');
      expect(r.code).toBe(1);
      expect(r.err).toContain('the stored client secret cannot be read');
      expect(r.err).toContain(`environment variable ${ENV_NAME} is not set`);
      // Disabling does not need it.
      expect((await run('set-oauth-provider', '--provider', 'dingtalk', '--disable')).code).toBe(0);
    } finally {
      process.env[ENV_NAME] = SECRET;
    }
  });

  it('never printed the secret', () => {
    expect(outputs.join('\n')).not.toContain(SECRET);
  });
});
