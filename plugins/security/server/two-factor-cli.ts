import type { CliCommand } from '../../../server/cli/command';
import { userNamed } from '../../../server/services/accounts';
import { cleanTextForCli } from '../../../server/clean-text';
import { endOtherSessions } from './sessions-service';
import { removeAllFactors, requiringOrgs, toPasskey } from './two-factor-service';

const when = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** Longest account of the identity proofing an admin gives (`--proofed`). */
export const PROOFED_MAX = 500;

/** What `remove-factors` says when run without `--proofed`: why it needs identity proofing, and how to give it. */
export function proofingNeeded(username: string): string {
  return [
    `remove-factors: refused. Removing ${username}'s second factors lets anyone who knows (or resets) the password`,
    'sign in as them: it is how accounts are taken over by a call to the help desk. Before removing them, prove that',
    'the person asking is the account owner through a channel an attacker does not control (e.g. a video call',
    'against an identity document, a request confirmed by their manager through the organisation, an in-person',
    'check), then run again with --proofed "<how the identity was proved, by whom, ticket number>".',
    'The removal is written to the account history and the owner is told by an inbox message and an email.',
  ].join('\n');
}

/**
 * Admin CLI (issue 41, item 6): a member's second factors, listed without a secret, and all removed after identity
 * proofing (written to the member's history as `second-factor.removed` by an admin, factor `all`; the member hears of
 * it by inbox and mail). The removal also signs the member out everywhere (unless `--keep-sessions`): factors are
 * usually removed because a device was lost or stolen, and a session on that device must not outlive them.
 */
export const twoFactorCommands: CliCommand[] = [
  {
    name: 'factors',
    usage: 'factors --username U [--json]              (an account’s second factors: app, passkeys, codes left)',
    options: { username: { type: 'string' }, json: { type: 'boolean' } },
    async run({ values, need, deps, io }) {
      const args = need('username');
      if (!args) return 2;
      const user = await userNamed(deps.db, args[0]);
      const [summary, required] = await Promise.all([
        deps.secondFactors.summary(user.id),
        requiringOrgs(deps.db, user.id),
      ]);
      if (values.json) {
        const json = {
          username: user.username,
          totp: summary.totpSince === null ? null : { since: new Date(summary.totpSince).toISOString() },
          passkeys: summary.passkeys.map(toPasskey),
          recovery_codes_left: summary.recoveryCodesLeft,
          required_by: required.map((r) => ({ org: r.org, deadline: new Date(r.deadline).toISOString() })),
        };
        io.out(JSON.stringify(json, null, 2));
        return 0;
      }
      const none = summary.totpSince === null && !summary.passkeys.length;
      io.out(`${user.username}: ${none ? 'no second factor' : 'second factor on'}`);
      io.out(`authenticator app\t${summary.totpSince === null ? 'none' : `set up ${when(summary.totpSince)}`}`);
      if (!summary.passkeys.length) io.out('passkeys\tnone');
      for (const p of summary.passkeys) {
        io.out(
          `passkey\t${p.id}\t"${p.name}"\t${p.discoverable ? 'passkey' : 'security key'}\tadded ${when(p.createdAt)}, ` +
            `last used ${p.lastUsedAt === null ? 'never' : when(p.lastUsedAt)}`,
        );
      }
      io.out(`recovery codes left\t${summary.recoveryCodesLeft}`);
      for (const r of required) io.out(`required by\t${r.org}\tfrom ${when(r.deadline)}`);
      return 0;
    },
  },
  {
    name: 'remove-factors',
    usage:
      'remove-factors --username U --proofed "HOW" [--keep-sessions]\n' +
      '                                            (removes every second factor and recovery code of the account\n' +
      '                                            after its owner’s identity was proved (HOW: how, by whom, ticket);\n' +
      '                                            signs the account out everywhere unless --keep-sessions)',
    options: { username: { type: 'string' }, proofed: { type: 'string' }, 'keep-sessions': { type: 'boolean' } },
    async run({ values, need, deps, io }) {
      const args = need('username');
      if (!args) return 2;
      const user = await userNamed(deps.db, args[0]);
      const given = typeof values.proofed === 'string' ? values.proofed.trim() : '';
      if (!given) {
        io.err(proofingNeeded(user.username));
        return 2;
      }
      const proofed = cleanTextForCli(given, '--proofed');
      if ('problem' in proofed) {
        io.err(`remove-factors: ${proofed.problem}`);
        return 2;
      }
      if (proofed.text.length > PROOFED_MAX) {
        io.err(`remove-factors: --proofed is longer than ${PROOFED_MAX} characters`);
        return 2;
      }
      const removed = await removeAllFactors(deps, user.id);
      const factors = (removed.totpSince === null ? 0 : 1) + removed.passkeys.length;
      if (!factors && !removed.recoveryCodesLeft) {
        io.out(`${user.username} has no second factor; nothing removed`);
        return 0;
      }
      const parts = [
        removed.totpSince === null ? null : 'the authenticator app',
        removed.passkeys.length ? `${removed.passkeys.length} passkey(s)` : null,
        `${removed.recoveryCodesLeft} unused recovery code(s)`,
      ].filter(Boolean);
      io.out(`removed ${parts.join(', ')} of ${user.username} (identity proofed: ${proofed.text})`);
      if (!values['keep-sessions']) {
        const ended = await endOtherSessions(deps, user.id, null, 'admin');
        io.out(ended ? `ended ${ended} session(s) of ${user.username}` : `${user.username} had no live session`);
      }
      io.out(`${user.username} can now sign in with the password alone and should set up a second factor again`);
      return 0;
    },
  },
];
