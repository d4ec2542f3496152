import type { Migration } from 'kysely';
import type { ServerPlugin } from '../../../server/plugin';
import * as m067 from './migrations/067-account-history';
import { purgeHistory, recordEvent } from './history-service';
import { historyCommands } from './history-cli';

/** The history's migrations (the table the account events are written to). */
export const historyMigrations: Record<string, Migration> = { '067-account-history': m067 };

/**
 * The history's part of the slice: the event receiver that writes it (the account events of the service and of the
 * admin CLI), its purge after `HISTORY_DAYS` days, and the admin's `history` command.
 */
export const historyServer: Required<Pick<ServerPlugin, 'onEvent' | 'housekeeping' | 'cli'>> = {
  onEvent: recordEvent,
  housekeeping: purgeHistory,
  cli: historyCommands,
};
