import type { CliCommand } from '../../../server/cli/command';
import { cleanNotice, postNotice } from './service';

/** The message center's admin commands. */
export const inboxCommands: CliCommand[] = [
  {
    name: 'send-notice',
    usage: 'send-notice --org NAME --title TITLE --body BODY    (a notice in the inbox of every member)',
    options: { org: { type: 'string' }, title: { type: 'string' }, body: { type: 'string' } },
    async run({ need, deps, io }) {
      const args = need('org', 'title', 'body');
      if (!args) return 2;
      const [orgName, title, body] = args;
      const notice = cleanNotice(title, body);
      if ('problem' in notice) {
        io.err(`send-notice: ${notice.problem}`);
        return 1;
      }
      const posted = await postNotice(deps, orgName, notice.title, notice.body);
      io.out(`notice posted to ${posted.members} member(s) of ${posted.org}`);
      return 0;
    },
  },
];
