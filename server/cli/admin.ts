import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { migrateToLatest, openDatabase } from '../db/index';
import { systemClock } from '../clock';
import { DEFAULT_HASH_PARAMS, PasswordHasher, passwordRuleViolation, type HashParams } from '../auth/passwords';
import { LoginLockout } from '../auth/lockout';
import { AccountError, createOrg, createUser, installApp, listUsers } from '../services/accounts';
import { translate } from '../i18n/index';
import {
  bindIdentity,
  IDENTITY_PROVIDERS,
  unbindIdentity,
  type IdentityProvider,
} from '../../plugins/third-party/server/service';

/** Usage text printed by `help` and on mistakes. */
export const USAGE = `Usage: npm run admin -- <command> [options]

  create-user --username U --password P [--email E] [--name N] [--org NAME] [--must-change-password]
  create-org --name NAME
  install-app --org NAME --app APP          (APP: codeup, packages, lingma, …)
  unlock-user --username U                  (clears the sign-in lock of that name)
  list-users [--json]
  bind-identity --username U --provider dingtalk|feishu|api --open-id X
  bind-idp --username U --name N [--open-id X]     (identity source binding; open id defaults to U)
  unbind-identity --username U --provider dingtalk|feishu|api|idp [--name N]

The database is the one the service uses: DATA_DIR (default ./data) or DATABASE_URL.`;

/** Where CLI output goes, so tests can capture it. */
export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

/** Runs one admin command; returns the process exit code (0 ok, 1 refused, 2 usage). */
export async function runAdmin(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  io: CliIo = { out: (l) => console.log(l), err: (l) => console.error(l) },
  hashParams: HashParams = DEFAULT_HASH_PARAMS,
): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    io.out(USAGE);
    return command ? 0 : 2;
  }
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: rest,
      strict: true,
      options: {
        username: { type: 'string' },
        password: { type: 'string' },
        email: { type: 'string' },
        name: { type: 'string' },
        org: { type: 'string' },
        app: { type: 'string' },
        'must-change-password': { type: 'boolean' },
        json: { type: 'boolean' },
        provider: { type: 'string' },
        'open-id': { type: 'string' },
      },
    }));
  } catch (e) {
    io.err(`${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const need = (...names: string[]): string[] | null => {
    const missing = names.filter((n) => typeof values[n] !== 'string' || !values[n]);
    if (missing.length) {
      io.err(`${command}: missing ${missing.map((m) => `--${m}`).join(', ')}\n\n${USAGE}`);
      return null;
    }
    return names.map((n) => values[n] as string);
  };
  const known = [
    'create-user',
    'create-org',
    'install-app',
    'unlock-user',
    'list-users',
    'bind-identity',
    'bind-idp',
    'unbind-identity',
  ];
  if (!known.includes(command)) {
    io.err(`unknown command "${command}"\n\n${USAGE}`);
    return 2;
  }

  const config = loadConfig(env, (m) => io.err(`warning: ${m}`));
  const database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  try {
    await migrateToLatest(database.db);
    const deps = { db: database.db, clock: systemClock, hasher: new PasswordHasher(hashParams) };
    switch (command) {
      case 'create-user': {
        const args = need('username', 'password');
        if (!args) return 2;
        const violation = passwordRuleViolation(args[1]);
        if (violation) {
          io.err(`create-user: ${translate('en_US', violation)}`);
          return 1;
        }
        const u = await createUser(deps, {
          username: args[0],
          password: args[1],
          email: values.email as string | undefined,
          name: values.name as string | undefined,
          org: values.org as string | undefined,
          mustChangePassword: values['must-change-password'] === true,
        });
        io.out(
          `created user ${u.username} (${u.id})${values.org ? ` in ${values.org}` : ''}${u.must_change_password ? ', must change password at first sign-in' : ''}`,
        );
        return 0;
      }
      case 'create-org': {
        const args = need('name');
        if (!args) return 2;
        const o = await createOrg(deps, args[0]);
        io.out(`created organisation ${o.name} (${o.id})`);
        return 0;
      }
      case 'install-app': {
        const args = need('org', 'app');
        if (!args) return 2;
        const r = await installApp(deps, args[0], args[1]);
        io.out(`app ${r.appKey} (${r.appId}) is installed in ${args[0]}`);
        return 0;
      }
      case 'unlock-user': {
        const args = need('username');
        if (!args) return 2;
        const had = await new LoginLockout(database.db, systemClock).unlock(args[0]);
        io.out(had ? `unlocked ${args[0]}` : `${args[0]} had no failed sign-ins; nothing to unlock`);
        return 0;
      }
      case 'bind-identity': {
        const args = need('username', 'provider', 'open-id');
        if (!args) return 2;
        if (args[1] === 'idp' || !IDENTITY_PROVIDERS.includes(args[1] as IdentityProvider)) {
          io.err(`bind-identity: --provider must be dingtalk, feishu or api (use bind-idp for identity sources)`);
          return 2;
        }
        const b = await bindIdentity(deps, {
          username: args[0],
          provider: args[1] as IdentityProvider,
          openId: args[2],
        });
        io.out(`bound ${args[0]} to ${b.name} account ${b.open_id}`);
        return 0;
      }
      case 'bind-idp': {
        const args = need('username', 'name');
        if (!args) return 2;
        const b = await bindIdentity(deps, {
          username: args[0],
          provider: 'idp',
          name: args[1],
          openId: values['open-id'] as string | undefined,
        });
        io.out(`bound ${args[0]} to identity source ${b.name} as ${b.open_id}`);
        return 0;
      }
      case 'unbind-identity': {
        const args = need('username', 'provider');
        if (!args) return 2;
        if (!IDENTITY_PROVIDERS.includes(args[1] as IdentityProvider)) {
          io.err(`unbind-identity: --provider must be one of ${IDENTITY_PROVIDERS.join(', ')}`);
          return 2;
        }
        const n = await unbindIdentity(
          database.db,
          args[0],
          args[1] as IdentityProvider,
          values.name as string | undefined,
        );
        io.out(n ? `removed ${n} binding(s) of ${args[0]}` : `${args[0]} had no such binding; nothing removed`);
        return 0;
      }
      case 'list-users': {
        const users = await listUsers(database.db);
        if (values.json) {
          io.out(JSON.stringify(users, null, 2));
        } else if (!users.length) {
          io.out('no users yet');
        } else {
          for (const u of users) {
            const flags = u.must_change_password ? ' [must change password]' : '';
            io.out(
              `${u.username}\t${u.email ?? '-'}\t${u.orgs.join(', ') || '-'}\t${new Date(u.created_at).toISOString()}${flags}`,
            );
          }
        }
        return 0;
      }
    }
    return 2;
  } catch (e) {
    if (e instanceof AccountError) {
      io.err(`${command}: ${e.message}`);
      return 1;
    }
    throw e;
  } finally {
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runAdmin(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e: unknown) => {
      console.error(e instanceof Error ? e.message : e);
      process.exit(1);
    },
  );
}
