import type { CliCommand } from '../../../server/cli/command';
import { AccountError, userNamed } from '../../../server/services/accounts';
import { describeBrowser } from '../../../server/auth/user-agent';
import { AppError } from '../../../server/errors';
import { endOtherSessions, endSession, sessionExpiry, sessionRows } from './sessions-service';

const when = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** Admin CLI: a member's sessions, listed and ended (as `session.ended` by an admin in the member's history). */
export const sessionCommands: CliCommand[] = [
  {
    name: 'list-sessions',
    usage: 'list-sessions --username U [--json]        (the live sessions of an account, newest first)',
    options: { username: { type: 'string' }, json: { type: 'boolean' } },
    async run({ values, need, deps, io }) {
      const args = need('username');
      if (!args) return 2;
      const user = await userNamed(deps.db, args[0]);
      const rows = await sessionRows(deps, user.id);
      const sessions = rows.map((r) => ({
        id: r.handle,
        browser: describeBrowser(r.user_agent).info,
        method: r.method,
        address: r.address,
        created_at: new Date(r.created_at).toISOString(),
        last_seen_at: new Date(r.last_seen_at).toISOString(),
        expires_at: new Date(sessionExpiry(r)).toISOString(),
      }));
      if (values.json) {
        io.out(JSON.stringify(sessions, null, 2));
        return 0;
      }
      if (!rows.length) io.out(`${user.username} has no live session`);
      for (const [i, r] of rows.entries()) {
        const b = sessions[i].browser;
        const browser = b.name ? `${b.name}${b.version ? ` ${b.version}` : ''}${b.os ? ` on ${b.os}` : ''}` : 'unknown';
        io.out(
          `${r.handle}\t${r.method}\t${r.address ?? '-'}\t${browser}\tsigned in ${when(r.created_at)}, ` +
            `last active ${when(r.last_seen_at)}`,
        );
      }
      return 0;
    },
  },
  {
    name: 'end-sessions',
    usage:
      'end-sessions --username U (--id ID | --all)  (signs one session of the account out, or all of them; ids from\n' +
      '                                              list-sessions)',
    options: { username: { type: 'string' }, id: { type: 'string' }, all: { type: 'boolean' } },
    async run({ values, need, deps, io }) {
      const args = need('username');
      if (!args) return 2;
      const id = typeof values.id === 'string' ? values.id : undefined;
      if (!id === !values.all) {
        io.err('end-sessions: give either --id ID or --all');
        return 2;
      }
      const user = await userNamed(deps.db, args[0]);
      if (values.all) {
        const n = await endOtherSessions(deps, user.id, null, 'admin');
        io.out(n ? `ended ${n} session(s) of ${user.username}` : `${user.username} had no live session; nothing ended`);
        return 0;
      }
      try {
        await endSession(deps, user.id, id!, null, 'admin');
      } catch (e) {
        if (e instanceof AppError && e.code === 'SessionNotFound')
          throw new AccountError(`${user.username} has no live session ${id}`);
        throw e;
      }
      io.out(`ended session ${id} of ${user.username}`);
      return 0;
    },
  },
];
