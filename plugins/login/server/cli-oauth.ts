import type { CliCommand } from '../../../server/cli/command';

/** `set-oauth-provider`, `show-oauth-providers`. (Being written.) */
export const oauthCommands: CliCommand[] = [];
