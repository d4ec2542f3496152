import type { Migration } from 'kysely';
import type { ServerPlugin } from '../../../server/plugin';

/** The history's migrations (the table the account events are written to). */
export const historyMigrations: Record<string, Migration> = {};

/** The history's part of the slice: the event receiver that writes it, its purge, its CLI. */
export const historyServer: Required<Pick<ServerPlugin, 'onEvent' | 'housekeeping' | 'cli'>> = {
  onEvent: async () => false,
  housekeeping: async () => {},
  cli: [],
};
