import type { CliCommand } from '../../../server/cli/command';

/** Admin CLI: a member's sessions, listed and ended. */
export const sessionCommands: CliCommand[] = [];
