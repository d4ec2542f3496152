import type { CliCommand } from '../../../server/cli/command';

/** `set-directory`, `show-directory`, `test-directory`. (Being written.) */
export const directoryCommands: CliCommand[] = [];
