import type { CliCommand } from '../../../server/cli/command';
import { isOAuthProvider, OAUTH_PROVIDERS } from '../../../schemas/sign-in';
import { describeSecretRef } from './secret-ref';
import { listOAuthProviders, setOAuthProvider } from './oauth';

const SET_USAGE =
  'set-oauth-provider --provider dingtalk|lark|wecom --client-id ID (--client-secret-file PATH | --client-secret-env NAME)\n' +
  '      [--authorize-url U] [--token-url U] [--userinfo-url U] [--scope S] [--id-field F] [--name-field F] [--disable]\n' +
  '      (third-party sign-in; an update changes only what is given; endpoints https, defaults per provider)';

const str = (v: string | boolean | undefined): string | undefined => (typeof v === 'string' ? v : undefined);

/** `set-oauth-provider`, `show-oauth-providers`: the third-party sign-in clients of this instance. */
export const oauthCommands: CliCommand[] = [
  {
    name: 'set-oauth-provider',
    usage: SET_USAGE,
    options: {
      provider: { type: 'string' },
      'client-id': { type: 'string' },
      'client-secret-file': { type: 'string' },
      'client-secret-env': { type: 'string' },
      'authorize-url': { type: 'string' },
      'token-url': { type: 'string' },
      'userinfo-url': { type: 'string' },
      scope: { type: 'string' },
      'id-field': { type: 'string' },
      'name-field': { type: 'string' },
      disable: { type: 'boolean' },
    },
    async run({ values, need, deps, io }) {
      const args = need('provider');
      if (!args) return 2;
      const [provider] = args;
      if (!isOAuthProvider(provider)) {
        io.err(`set-oauth-provider: --provider must be one of ${OAUTH_PROVIDERS.join(', ')}, got "${provider}"`);
        io.err(`\nUsage: npm run admin -- ${SET_USAGE}`);
        return 2;
      }
      const { row, created } = await setOAuthProvider(deps, {
        provider,
        clientId: str(values['client-id']),
        clientSecretFile: str(values['client-secret-file']),
        clientSecretEnv: str(values['client-secret-env']),
        authorizeUrl: str(values['authorize-url']),
        tokenUrl: str(values['token-url']),
        userinfoUrl: str(values['userinfo-url']),
        scope: str(values.scope),
        idField: str(values['id-field']),
        nameField: str(values['name-field']),
        disable: values.disable === true,
      });
      io.out(
        `${created ? 'configured' : 'updated'} ${row.provider} sign-in (${row.enabled ? 'enabled' : 'disabled'}); ` +
          `client secret from ${describeSecretRef(row.secret_ref)}`,
      );
      return 0;
    },
  },
  {
    name: 'show-oauth-providers',
    usage: 'show-oauth-providers    (third-party sign-in clients; where each secret is, never the secret)',
    async run({ deps, io }) {
      const rows = await listOAuthProviders(deps);
      if (!rows.length) {
        io.out('no third-party sign-in configured');
        return 0;
      }
      for (const r of rows) {
        io.out(`${r.provider}: ${r.enabled ? 'enabled' : 'disabled'}`);
        io.out(`  client id:     ${r.client_id}`);
        io.out(`  client secret: ${describeSecretRef(r.secret_ref)}`);
        io.out(`  authorize:     ${r.authorize_url}`);
        io.out(`  token:         ${r.token_url}`);
        io.out(`  user info:     ${r.userinfo_url}`);
        io.out(`  scope:         ${r.scope || '(none)'}`);
        io.out(`  id field:      ${r.id_field}`);
        io.out(`  name field:    ${r.name_field || '(none)'}`);
      }
      return 0;
    },
  },
];
