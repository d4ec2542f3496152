import { parseArgs, type ParseArgsConfig } from 'node:util';
import { loadConfig } from '../config';
import { migrateToLatest, openDatabase } from '../db/index';
import { systemClock } from '../clock';
import { DEFAULT_HASH_PARAMS, PasswordHasher, passwordRuleViolation, type HashParams } from '../auth/passwords';
import { LOCKS, LoginLockout, type Lock } from '../auth/lockout';
import { AccountError, createOrg, createUser, findUserByUsername, installApp, listUsers } from '../services/accounts';
import { bindIdentity, unbindIdentity } from '../services/identities';
import { translate } from '../i18n/index';
import { discoverServerPlugins } from '../plugin-loader';
import type { ServerPlugin } from '../plugin';
import type { CliCommand, CliIo } from './command';
import { EventBus, type EventReceiver } from '../events';
import { createSecondFactors } from '../auth/second-factor/index';
import { loadEdition } from '../edition/loader';
import { createMailer, senderAddress } from '../mail/index';
import { ORG_COMMANDS } from './org-commands';
import { IDENTITY_PROVIDERS, type IdentityProvider } from '../../schemas/identities';

export type { CliCommand, CliIo } from './command';

const USAGE_HEAD = 'Usage: npm run admin -- <command> [options]';
const USAGE_TAIL = 'The database is the one the service uses: DATA_DIR (default ./data) or DATABASE_URL.';

/** How the CLI names the two locks of a name (smart lockout). */
const LOCK_NAMES: Record<Lock, string> = {
  unmarked: 'browsers without a device mark',
  marked: 'browsers with a device mark',
};
const LOCK_NAME_WIDTH = Math.max(...Object.values(LOCK_NAMES).map((n) => n.length));

/** The core's commands; slices add theirs through `defineServerPlugin({ cli })`. */
export const CORE_COMMANDS: readonly CliCommand[] = [
  {
    name: 'create-user',
    usage: 'create-user --username U --password P [--email E] [--name N] [--org NAME] [--must-change-password]',
    options: {
      username: { type: 'string' },
      password: { type: 'string' },
      email: { type: 'string' },
      name: { type: 'string' },
      org: { type: 'string' },
      'must-change-password': { type: 'boolean' },
    },
    async run({ values, need, deps, io }) {
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
    },
  },
  {
    name: 'create-org',
    usage: 'create-org --name NAME',
    options: { name: { type: 'string' } },
    async run({ need, deps, io }) {
      const args = need('name');
      if (!args) return 2;
      const o = await createOrg(deps, args[0]);
      io.out(`created organisation ${o.name} (${o.id})`);
      return 0;
    },
  },
  {
    name: 'install-app',
    usage: 'install-app --org NAME --app APP          (APP: codeup, packages, lingma, …)',
    options: { org: { type: 'string' }, app: { type: 'string' } },
    async run({ need, deps, io }) {
      const args = need('org', 'app');
      if (!args) return 2;
      const r = await installApp(deps, args[0], args[1]);
      io.out(`app ${r.appKey} (${r.appId}) is installed in ${args[0]}`);
      return 0;
    },
  },
  {
    name: 'unlock-user',
    usage:
      'unlock-user --username U [--lock unmarked|marked]  (clears the sign-in locks of that name: both, or the one named)',
    options: { username: { type: 'string' }, lock: { type: 'string' } },
    async run({ values, need, deps, io }) {
      const args = need('username');
      if (!args) return 2;
      const only = values.lock as Lock | undefined;
      if (only !== undefined && !LOCKS.includes(only)) {
        io.err(`unlock-user: --lock must be ${LOCKS.join(' or ')}`);
        return 2;
      }
      // A lock lifted (not just failures forgotten) goes to the account's history: an administrator unlocked it.
      const lockout = new LoginLockout(deps.db, deps.clock);
      const locked = await Promise.all((only ? [only] : LOCKS).map((lock) => lockout.isLocked(args[0], lock)));
      let had = await lockout.unlock(args[0], only);
      // An account its owner held ("this wasn't me") is lifted by this command only, and only without --lock.
      let held = false;
      if (!only) {
        const r = await deps.db
          .updateTable('users')
          .set({ held_at: null })
          .where('username_lower', '=', args[0].toLowerCase())
          .where('held_at', 'is not', null)
          .executeTakeFirst();
        held = Number(r.numUpdatedRows) > 0;
        had = held || had;
      }
      const which = only ? ` (${LOCK_NAMES[only]})` : held ? ' (held by its owner)' : '';
      const account = locked.some(Boolean) || held ? await findUserByUsername(deps.db, args[0]) : undefined;
      if (account) await deps.events.emit({ type: 'account.unlocked', by: 'admin', to: { userId: account.id } });
      io.out(had ? `unlocked ${args[0]}${which}` : `${args[0]} had no failed sign-ins${which}; nothing to unlock`);
      return 0;
    },
  },
  {
    name: 'lockout-status',
    usage: 'lockout-status [--username U] [--json]    (both sign-in locks of a name, or of every name with failures)',
    options: { username: { type: 'string' }, json: { type: 'boolean' } },
    async run({ values, deps, io }) {
      const lockout = new LoginLockout(deps.db, deps.clock);
      const names = typeof values.username === 'string' ? [values.username] : await lockout.counted();
      const reports = [];
      for (const name of names) reports.push({ username: name, ...(await lockout.report(name)) });
      if (values.json) {
        io.out(JSON.stringify(reports, null, 2));
        return 0;
      }
      if (!reports.length) io.out('no failed sign-ins counted');
      for (const r of reports) {
        io.out(r.username);
        for (const lock of LOCKS) {
          const st = r[lock];
          const state = st.lockedUntil
            ? `locked until ${new Date(st.lockedUntil).toISOString().slice(0, 16).replace('T', ' ')} UTC`
            : st.failures
              ? `${st.failures} failure${st.failures === 1 ? '' : 's'}${st.needCaptcha ? ', slider needed' : ''}`
              : 'no failures';
          io.out(`  ${`${LOCK_NAMES[lock]}:`.padEnd(LOCK_NAME_WIDTH + 1)} ${state}`);
        }
      }
      return 0;
    },
  },
  {
    name: 'list-users',
    usage: 'list-users [--json]',
    options: { json: { type: 'boolean' } },
    async run({ values, deps, io }) {
      const users = await listUsers(deps.db);
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
    },
  },
  {
    name: 'bind-identity',
    usage: 'bind-identity --username U --provider dingtalk|feishu|api --open-id X',
    options: { username: { type: 'string' }, provider: { type: 'string' }, 'open-id': { type: 'string' } },
    async run({ need, deps, io }) {
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
    },
  },
  {
    name: 'bind-idp',
    usage: 'bind-idp --username U --name N [--open-id X]     (identity source binding; open id defaults to U)',
    options: { username: { type: 'string' }, name: { type: 'string' }, 'open-id': { type: 'string' } },
    async run({ values, need, deps, io }) {
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
    },
  },
  {
    name: 'unbind-identity',
    usage: 'unbind-identity --username U --provider dingtalk|feishu|api|idp [--name N]',
    options: { username: { type: 'string' }, provider: { type: 'string' }, name: { type: 'string' } },
    async run({ values, need, deps, io }) {
      const args = need('username', 'provider');
      if (!args) return 2;
      if (!IDENTITY_PROVIDERS.includes(args[1] as IdentityProvider)) {
        io.err(`unbind-identity: --provider must be one of ${IDENTITY_PROVIDERS.join(', ')}`);
        return 2;
      }
      const n = await unbindIdentity(deps, args[0], args[1] as IdentityProvider, values.name as string | undefined);
      io.out(n ? `removed ${n} binding(s) of ${args[0]}` : `${args[0]} had no such binding; nothing removed`);
      return 0;
    },
  },
  ...ORG_COMMANDS,
];

/** The usage text for a command list: one indented line per command, then where the database is. */
export function usageText(commands: readonly CliCommand[]): string {
  const lines = commands.flatMap((c) => c.usage.split('\n').map((l) => `  ${l}`));
  return `${USAGE_HEAD}\n\n${lines.join('\n')}\n\n${USAGE_TAIL}`;
}

/** Usage text of the core commands (what `help` prints when no slice contributes a command). */
export const USAGE = usageText(CORE_COMMANDS);

/**
 * Runs one admin command; returns the process exit code (0 ok, 1 refused, 2 usage). Commands are the
 * core's plus those the server slices contribute (`plugins`, default: every discovered slice — the same
 * discovery the service uses, so this file imports no plugin).
 */
export async function runAdmin(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  io: CliIo = { out: (l) => console.log(l), err: (l) => console.error(l) },
  hashParams: HashParams = DEFAULT_HASH_PARAMS,
  plugins?: readonly ServerPlugin[],
): Promise<number> {
  const slices = plugins ?? (await discoverServerPlugins());
  const commands = [...CORE_COMMANDS];
  for (const p of slices) {
    for (const c of p.cli ?? []) {
      if (commands.some((k) => k.name === c.name))
        throw new Error(`admin command "${c.name}" of plugin "${p.id}" is already defined`);
      commands.push(c);
    }
  }
  const usage = usageText(commands);
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    io.out(usage);
    return command ? 0 : 2;
  }
  // One option table for all commands (as before the split): an option another command knows is accepted.
  const options: NonNullable<ParseArgsConfig['options']> = {};
  for (const c of commands) Object.assign(options, c.options);
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args: rest, strict: true, options }) as {
      values: Record<string, string | boolean | undefined>;
    });
  } catch (e) {
    io.err(`${(e as Error).message}\n\n${usage}`);
    return 2;
  }
  const need = (...names: string[]): string[] | null => {
    const missing = names.filter((n) => typeof values[n] !== 'string' || !values[n]);
    if (missing.length) {
      io.err(`${command}: missing ${missing.map((m) => `--${m}`).join(', ')}\n\n${usage}`);
      return null;
    }
    return names.map((n) => values[n] as string);
  };
  const chosen = commands.find((c) => c.name === command);
  if (!chosen) {
    io.err(`unknown command "${command}"\n\n${usage}`);
    return 2;
  }

  const config = loadConfig(env, (m) => io.err(`warning: ${m}`));
  const database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  // Mail goes where the service's goes (the security slice mails about the events a command emits).
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    dataDir: config.dataDir,
    from: senderAddress(config.publicUrl),
  });
  try {
    await migrateToLatest(database.db, undefined, slices);
    const base = { db: database.db, clock: systemClock, mailer };
    // The CLI's events (a notice, a whitelist change) reach every slice that receives them, whatever the edition.
    const events = new EventBus(
      base,
      slices.flatMap((s): EventReceiver[] => (s.onEvent ? [s.onEvent] : [])),
      {
        warn: (obj, msg) =>
          io.err(`warning: ${msg} ${JSON.stringify(obj, (k, v: unknown) => (v instanceof Error ? v.message : v))}`),
      },
    );
    const edition = loadEdition(config.edition, { editionsDir: config.editionsDir });
    const secondFactors = createSecondFactors({
      db: database.db,
      clock: systemClock,
      config,
      issuer: edition.names.product[edition.locale.default],
    });
    const deps = { ...base, hasher: new PasswordHasher(hashParams), events, secondFactors };
    return await chosen.run({ values, need, deps, io });
  } catch (e) {
    if (e instanceof AccountError) {
      io.err(`${command}: ${e.message}`);
      return 1;
    }
    throw e;
  } finally {
    mailer.close();
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
