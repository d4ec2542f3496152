import type { CliCommand } from '../../../server/cli/command';
import { findUserByUsername } from '../../../server/services/accounts';
import { HISTORY_DAYS, HISTORY_GROUPS, type HistoryGroup } from '../contract';
import { allEntries, toEntry } from './history-service';
import { HISTORY_TEXTS, entryCells } from './history-texts';

/** Entries `history` prints unless told. */
export const HISTORY_CLI_DEFAULT = 50;
/** The most entries `history` prints. */
export const HISTORY_CLI_MAX = 10_000;

/** Admin CLI: a member's history, newest first (what the member's own page and export show, in English). */
export const historyCommands: CliCommand[] = [
  {
    name: 'history',
    usage:
      `history --username U [--group G] [--limit N] [--json]  (a member's history of the last ${HISTORY_DAYS} days, ` +
      `newest first; G: ${HISTORY_GROUPS.join('|')}; N ≤ ${HISTORY_CLI_MAX.toLocaleString('en')}, default ${HISTORY_CLI_DEFAULT})`,
    options: {
      username: { type: 'string' },
      group: { type: 'string' },
      limit: { type: 'string' },
      json: { type: 'boolean' },
    },
    async run({ values, need, deps, io }) {
      const args = need('username');
      if (!args) return 2;
      const group = values.group as string | undefined;
      if (group !== undefined && !(HISTORY_GROUPS as readonly string[]).includes(group)) {
        io.err(`history: --group must be one of ${HISTORY_GROUPS.join(', ')}`);
        return 2;
      }
      const limitText = (values.limit as string | undefined) ?? String(HISTORY_CLI_DEFAULT);
      const limit = /^\d{1,6}$/.test(limitText) ? Number(limitText) : NaN;
      if (!(limit >= 1 && limit <= HISTORY_CLI_MAX)) {
        io.err(`history: --limit must be a whole number from 1 to ${HISTORY_CLI_MAX}`);
        return 2;
      }
      const user = await findUserByUsername(deps.db, args[0]);
      if (!user) {
        io.err(`history: no account named ${args[0]}`);
        return 1;
      }
      const entries = [];
      // Every entry still kept (the housekeeping deletes what is older than the page shows).
      for await (const row of allEntries(deps, user.id, group as HistoryGroup | undefined, 0)) {
        entries.push(toEntry(row));
        if (entries.length >= limit) break;
      }
      if (values.json) {
        io.out(JSON.stringify(entries, null, 2));
        return 0;
      }
      if (!entries.length) {
        io.out(`${user.username} has no history${group ? ` in ${group}` : ''}`);
        return 0;
      }
      const t = HISTORY_TEXTS.en_US;
      for (const e of entries) io.out(entryCells(t, e).filter(Boolean).join('  '));
      return 0;
    },
  },
];
