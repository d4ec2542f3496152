import type { CliCommand } from '../../../server/cli/command';
import { findOrgByName } from '../../../server/services/accounts';
import { DIRECTORY_KINDS, type DirectoryKind } from '../../../schemas/sign-in';
import { DirectoryDownError, listDirectories, setDirectory, testDirectory, type DirectoryInput } from './directory';
import { describeSecretRef, secretRefFrom } from './secret-ref';

const str = (v: string | boolean | undefined) => (typeof v === 'string' ? v : undefined);

/** The kind option, or null after saying what is wrong. */
function kindOf(v: string, io: { err(l: string): void }, cmd: string): DirectoryKind | null {
  if ((DIRECTORY_KINDS as readonly string[]).includes(v)) return v as DirectoryKind;
  io.err(`${cmd}: --kind must be one of ${DIRECTORY_KINDS.join(', ')}, got "${v}"`);
  return null;
}

/** The organisation id of `--org NAME`, '' without it, or null after saying it does not exist. */
async function orgIdOf(
  db: Parameters<typeof findOrgByName>[0],
  name: string | undefined,
  io: { err(l: string): void },
  cmd: string,
): Promise<string | undefined | null> {
  if (!name) return undefined;
  const org = await findOrgByName(db, name);
  if (!org) {
    io.err(`${cmd}: --org: organisation "${name}" does not exist`);
    return null;
  }
  return org.id;
}

/** Directory sign-in (LDAP, Windows AD): configure, show, try a name. */
export const directoryCommands: CliCommand[] = [
  {
    name: 'set-directory',
    usage: [
      'set-directory --kind ldap|ad [--org NAME] --url ldap[s]://HOST[:PORT] --bind-dn DN',
      '    (--bind-password-file PATH | --bind-password-env NAME) --base-dn DN [--user-filter F]',
      '    [--login-attr A[,A]] [--name-attr A] [--email-attr A] [--start-tls] [--ca-file PEM]',
      '    [--display-name N] [--timeout-ms N] [--disable]      (directory sign-in; the password stays where it is)',
    ].join('\n'),
    options: {
      kind: { type: 'string' },
      org: { type: 'string' },
      url: { type: 'string' },
      'bind-dn': { type: 'string' },
      'bind-password-file': { type: 'string' },
      'bind-password-env': { type: 'string' },
      'base-dn': { type: 'string' },
      'user-filter': { type: 'string' },
      'login-attr': { type: 'string' },
      'name-attr': { type: 'string' },
      'email-attr': { type: 'string' },
      'start-tls': { type: 'boolean' },
      'ca-file': { type: 'string' },
      'display-name': { type: 'string' },
      'timeout-ms': { type: 'string' },
      disable: { type: 'boolean' },
    },
    async run({ values, need, deps, io }) {
      const args = need('kind', 'url', 'bind-dn', 'base-dn');
      if (!args) return 2;
      const kind = kindOf(args[0], io, 'set-directory');
      if (!kind) return 2;
      const secret = secretRefFrom(
        'bind-password',
        str(values['bind-password-file']),
        str(values['bind-password-env']),
      );
      if ('problem' in secret) {
        io.err(`set-directory: ${secret.problem}`);
        return 1;
      }
      const orgId = await orgIdOf(deps.db, str(values.org), io, 'set-directory');
      if (orgId === null) return 1;
      const timeout = str(values['timeout-ms']);
      const input: DirectoryInput = {
        kind,
        orgId,
        url: args[1],
        bindDn: args[2],
        baseDn: args[3],
        bindSecretRef: secret.ref,
        startTls: values['start-tls'] === true,
        caFile: str(values['ca-file']),
        userFilter: str(values['user-filter']),
        loginAttr: str(values['login-attr']),
        nameAttr: str(values['name-attr']),
        emailAttr: str(values['email-attr']),
        displayName: str(values['display-name']),
        timeoutMs: timeout === undefined ? undefined : /^\d+$/.test(timeout) ? Number(timeout) : NaN,
        enabled: values.disable !== true,
      };
      // A wrong configuration is refused by setDirectory, naming the option (AccountError: exit 1).
      const row = await setDirectory(deps, input);
      io.out(
        `${row.enabled ? 'enabled' : 'disabled'} ${row.name} (${row.kind}) ${row.url} for ` +
          `${str(values.org) ? `organisation ${str(values.org)}` : 'the instance'}; bind password from ` +
          `${describeSecretRef(row.bind_secret_ref)}`,
      );
      return 0;
    },
  },
  {
    name: 'show-directory',
    usage: 'show-directory                                    (configured directories; never a password)',
    async run({ deps, io }) {
      const rows = await listDirectories(deps.db);
      if (!rows.length) {
        io.out('no directory is configured (set-directory)');
        return 0;
      }
      const orgNames = new Map(
        (await deps.db.selectFrom('organizations').select(['id', 'name']).execute()).map((o) => [o.id, o.name]),
      );
      for (const r of rows) {
        io.out(
          [
            `${r.name} (${r.kind}) — ${r.org_key ? `organisation ${orgNames.get(r.org_key) ?? r.org_key}` : 'instance'}, ${r.enabled ? 'enabled' : 'disabled'}`,
            `  url ${r.url}${r.start_tls ? ' (StartTLS)' : ''}${r.ca_file ? `, CA ${r.ca_file}` : ''}, timeout ${r.timeout_ms} ms`,
            `  bind ${r.bind_dn}, password from ${describeSecretRef(r.bind_secret_ref)}`,
            `  base ${r.base_dn}, filter ${r.user_filter}`,
            `  attributes: login ${r.attr_login}, name ${r.attr_name}, e-mail ${r.attr_email}`,
          ].join('\n'),
        );
      }
      return 0;
    },
  },
  {
    name: 'test-directory',
    usage: 'test-directory --kind ldap|ad [--org NAME] --username U    (what the directory answers for U)',
    options: { kind: { type: 'string' }, org: { type: 'string' }, username: { type: 'string' } },
    async run({ values, need, deps, io }) {
      const args = need('kind', 'username');
      if (!args) return 2;
      const kind = kindOf(args[0], io, 'test-directory');
      if (!kind) return 2;
      const orgId = await orgIdOf(deps.db, str(values.org), io, 'test-directory');
      if (orgId === null) return 1;
      let found: Awaited<ReturnType<typeof testDirectory>>;
      try {
        found = await testDirectory(deps.db, kind, args[1], orgId);
      } catch (e) {
        if (!(e instanceof DirectoryDownError)) throw e;
        io.err(`test-directory: ${e.message}`);
        return 1;
      }
      const { directory, person } = found;
      io.out(`connected to ${directory.url} and bound as ${directory.bind_dn}`);
      if (!person) {
        io.out(`no single person matches "${args[1]}" under ${directory.base_dn} with ${directory.user_filter}`);
        return 1;
      }
      io.out(
        [
          `dn: ${person.dn}`,
          `login: ${person.login}`,
          `name: ${person.name || '(none)'}`,
          `e-mail: ${person.email ?? '(none)'}`,
          `stable id: ${person.stableId}`,
          `disabled: ${person.disabled ? 'yes' : 'no'}`,
        ].join('\n'),
      );
      return 0;
    },
  },
];
