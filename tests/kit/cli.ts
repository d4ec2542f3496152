import fs from 'node:fs';
import { runAdmin } from '../../server/cli/admin';
import type { ServerPlugin } from '../../server/plugin';
import { TEST_HASH_PARAMS, tempDataDir } from './server';

/** What one admin command printed and returned. */
export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/** The admin CLI on a temp data folder, with cheap hashing and captured output; `close()` removes the folder. */
export interface TestCli {
  /** The folder holding the CLI's SQLite database. */
  dir: string;
  /** Runs one command (`run('create-org', '--name', 'Acme')`). */
  run(...argv: string[]): Promise<CliRun>;
  /** Runs one command with an explicit list of server slices instead of the discovered ones. */
  runWith(plugins: readonly ServerPlugin[] | undefined, ...argv: string[]): Promise<CliRun>;
  /** Removes the temp folder. */
  close(): void;
}

/** Starts a CLI test bench: one data folder per test file, as an operator would use it. */
export function testCli(prefix = 'account-cli-'): TestCli {
  const dir = tempDataDir(prefix);
  const runWith = async (plugins: readonly ServerPlugin[] | undefined, ...argv: string[]): Promise<CliRun> => {
    const out: string[] = [];
    const err: string[] = [];
    const io = { out: (l: string) => out.push(l), err: (l: string) => err.push(l) };
    const code = await runAdmin(argv, { DATA_DIR: dir }, io, TEST_HASH_PARAMS, plugins);
    return { code, out: out.join('\n'), err: err.join('\n') };
  };
  return {
    dir,
    run: (...argv) => runWith(undefined, ...argv),
    runWith,
    close: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
