import type { CliCommand } from '../../../server/cli/command';
import { noticeProblem, orgForNotice } from './service';

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
      const problem = noticeProblem(title, body);
      if (problem) {
        io.err(`send-notice: ${problem}`);
        return 1;
      }
      const org = await orgForNotice(deps.db, orgName);
      const members = await deps.db
        .selectFrom('memberships')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('org_id', '=', org.id)
        .executeTakeFirstOrThrow();
      await deps.events.emit({
        type: 'org.notice',
        org: org.name,
        title: title.trim(),
        body: body.trim(),
        to: { orgId: org.id },
      });
      io.out(`notice posted to ${Number(members.n)} member(s) of ${org.name}`);
      return 0;
    },
  },
];
