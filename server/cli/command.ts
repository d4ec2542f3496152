import type { Kysely } from 'kysely';
import type { ParseArgsConfig } from 'node:util';
import type { Clock } from '../clock';
import type { DB } from '../db/schema';
import type { PasswordHasher } from '../auth/passwords';
import type { EventBus } from '../events';
import type { Mailer } from '../mail/index';
import type { SecondFactorService } from '../auth/second-factor/index';

/** Where CLI output goes, so tests can capture it. */
export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

/** What a command may use: the service's database and rules, and the terminal. */
export interface CliRun {
  /** Parsed `--option` values (only the options the admin CLI knows). */
  values: Record<string, string | boolean | undefined>;
  /** The named options as strings, in order; null (after printing what is missing and the usage) when one is absent. */
  need(...names: string[]): string[] | null;
  /** Database, clock, mailer, password hashing, account events and second factors of the service the CLI administers. */
  deps: {
    db: Kysely<DB>;
    clock: Clock;
    mailer: Mailer | null;
    hasher: PasswordHasher;
    events: EventBus;
    /** The accounts' second factors, with the service's factor key (SECOND_FACTOR_KEY or DATA_DIR's key file). */
    secondFactors: SecondFactorService;
  };
  io: CliIo;
}

/**
 * One `npm run admin -- <name>` command. The core declares its own this way and a server slice
 * contributes its commands through `defineServerPlugin({ cli })`, so the CLI imports no plugin.
 */
export interface CliCommand {
  /** The command word (unique across the core and every slice). */
  name: string;
  /** The usage line(s) `help` prints, without the leading indentation, e.g. `create-org --name NAME`. */
  usage: string;
  /** Options the command reads, in node:util parseArgs form (merged into the one option table). */
  options?: ParseArgsConfig['options'];
  /** Runs the command; resolves to the exit code (0 ok, 1 refused, 2 usage). AccountError counts as refused. */
  run(cli: CliRun): Promise<number>;
}
