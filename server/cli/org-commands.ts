import type { CliCommand } from './command';
import { SECOND_FACTOR_GRACE_DAYS_MAX } from '../../schemas/second-factor-limits';
import {
  addMember,
  describeOrg,
  parseGraceDays,
  removeMember,
  requireSecondFactor,
  setIpWhitelist,
  setLicenceExpiry,
  setOrderExpiry,
  setAppAdmin,
  setOrgAdmin,
} from '../services/organizations';

/**
 * Organisation policy and membership commands. They work on the database directly (not through the HTTP
 * service), so no IP whitelist or expired licence can ever lock an administrator out of changing them.
 */

/** The last valid day of an expiry instant (stored as the start of the next day, UTC). */
const day = (at: number): string => new Date(at - 1).toISOString().slice(0, 10);
/** An instant to the minute, UTC, as the second-factor policy prints it. */
const minute = (at: number): string => `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
/** Usernames named in full up to this many; the rest are counted. */
const NAMED_MAX = 20;

/** Who an organisation's second-factor requirement concerns: the members without one, named (the first 20). */
function withoutFactor(without: string[], members: number): string {
  if (!without.length) return `all ${members} member(s) have a second factor`;
  const named = without.slice(0, NAMED_MAX).join(', ');
  const more = without.length > NAMED_MAX ? ` and ${without.length - NAMED_MAX} more` : '';
  return `${without.length} of ${members} member(s) have no second factor: ${named}${more}`;
}

/** The organisation commands of `npm run admin` (registered with the core's in admin.ts). */
export const ORG_COMMANDS: readonly CliCommand[] = [
  {
    name: 'set-ip-whitelist',
    usage: 'set-ip-whitelist --org NAME --cidrs "10.0.0.0/8,2001:db8::/32"   (IPv4/IPv6 CIDRs; --cidrs "" clears it)',
    options: { org: { type: 'string' }, cidrs: { type: 'string' } },
    async run({ values, need, deps, io }) {
      if (typeof values.cidrs !== 'string') {
        io.err('set-ip-whitelist: missing --cidrs (give --cidrs "" to clear the whitelist)');
        return 2;
      }
      const args = need('org');
      if (!args) return 2;
      const { orgId, list } = await setIpWhitelist(deps, args[0], values.cidrs);
      // The admins hear of it in their inbox: a whitelist change can lock members out.
      await deps.events.emit({
        type: 'org.ip-whitelist-changed',
        org: args[0],
        cidrs: list,
        to: { orgId, role: 'admin' },
      });
      io.out(
        list.length
          ? `${args[0]}: requests are accepted only from ${list.join(', ')}`
          : `${args[0]}: IP whitelist cleared; requests are accepted from any address`,
      );
      return 0;
    },
  },
  {
    name: 'require-second-factor',
    usage:
      `require-second-factor --org NAME [--grace-days N] | --off    (members need an authenticator app or a passkey;\n` +
      `      without one they are refused in the organisation after N days, 0 to ${SECOND_FACTOR_GRACE_DAYS_MAX}, default 0)`,
    options: { org: { type: 'string' }, 'grace-days': { type: 'string' }, off: { type: 'boolean' } },
    async run({ values, need, deps, io }) {
      const args = need('org');
      if (!args) return 2;
      const grace = values['grace-days'];
      if (values.off === true && grace !== undefined) {
        io.err('require-second-factor: --off takes no --grace-days');
        return 2;
      }
      const days = values.off === true ? null : parseGraceDays(typeof grace === 'string' ? grace : undefined);
      const r = await requireSecondFactor(deps, args[0], days);
      if (!r.policy) {
        io.out(
          r.previous
            ? `${r.org}: a second factor is no longer required`
            : `${r.org}: a second factor was not required; nothing changed`,
        );
        return 0;
      }
      const { policy, previous } = r;
      // Members hear of it (in their inbox) when it starts and when its day moves: they have something to do.
      if (previous?.enforcedFrom !== policy.enforcedFrom) {
        await deps.events.emit({
          type: 'org.second-factor-required',
          org: r.org,
          enforcedFrom: policy.enforcedFrom,
          graceDays: policy.graceDays,
          to: { orgId: r.orgId },
        });
      }
      const since = previous ? ` (required since ${minute(previous.requiredAt)}; the grace counts from then)` : '';
      io.out(
        policy.enforcedFrom <= deps.clock.now().getTime()
          ? `${r.org}: members must have a second factor (an authenticator app or a passkey); those without one are refused now${since}`
          : `${r.org}: members must have a second factor (an authenticator app or a passkey); those without one are refused from ${minute(policy.enforcedFrom)} (${policy.graceDays} day(s) of grace)${since}`,
      );
      io.out(`  ${withoutFactor(r.without, r.members)}`);
      return 0;
    },
  },
  {
    name: 'set-licence',
    usage: 'set-licence --org NAME --expires YYYY-MM-DD|none    (the last valid day, UTC)',
    options: { org: { type: 'string' }, expires: { type: 'string' } },
    async run({ need, deps, io }) {
      const args = need('org', 'expires');
      if (!args) return 2;
      const at = await setLicenceExpiry(deps, args[0], args[1]);
      io.out(
        at === null ? `${args[0]}: the licence never expires` : `${args[0]}: the licence is valid through ${day(at)}`,
      );
      return 0;
    },
  },
  {
    name: 'set-order-expiry',
    usage: 'set-order-expiry --org NAME --expires YYYY-MM-DD|none    (standard-edition order; last valid day, UTC)',
    options: { org: { type: 'string' }, expires: { type: 'string' } },
    async run({ need, deps, io }) {
      const args = need('org', 'expires');
      if (!args) return 2;
      const at = await setOrderExpiry(deps, args[0], args[1]);
      io.out(at === null ? `${args[0]}: the order never expires` : `${args[0]}: the order is valid through ${day(at)}`);
      return 0;
    },
  },
  {
    name: 'set-app-admin',
    usage: 'set-app-admin --org NAME --app APP --username U [--revoke]    (administrator of an installed app)',
    options: {
      org: { type: 'string' },
      app: { type: 'string' },
      username: { type: 'string' },
      revoke: { type: 'boolean' },
    },
    async run({ values, need, deps, io }) {
      const args = need('org', 'app', 'username');
      if (!args) return 2;
      const [org, app, username] = args;
      const revoke = values.revoke === true;
      const changed = await setAppAdmin(deps, org, app, username, revoke);
      const role = `an administrator of ${app} in ${org}`;
      io.out(
        revoke
          ? changed
            ? `${username} is no longer ${role}`
            : `${username} was not ${role}; nothing changed`
          : `${username} is ${role}${changed ? '' : ' (already)'}`,
      );
      return 0;
    },
  },
  {
    name: 'set-org-admin',
    usage: 'set-org-admin --org NAME --username U [--revoke]    (joins U when needed; --revoke: member again)',
    options: { org: { type: 'string' }, username: { type: 'string' }, revoke: { type: 'boolean' } },
    async run({ values, need, deps, io }) {
      const args = need('org', 'username');
      if (!args) return 2;
      const r = await setOrgAdmin(deps, args[0], args[1], values.revoke === true);
      io.out(
        r.role === 'admin'
          ? `${args[1]} is an administrator of ${args[0]}${r.added ? ' (added as a member)' : ''}`
          : `${args[1]} is a member (not an administrator) of ${args[0]}`,
      );
      return 0;
    },
  },
  {
    name: 'add-member',
    usage: 'add-member --org NAME --username U',
    options: { org: { type: 'string' }, username: { type: 'string' } },
    async run({ need, deps, io }) {
      const args = need('org', 'username');
      if (!args) return 2;
      const r = await addMember(deps, args[0], args[1]);
      io.out(r.added ? `${args[1]} joined ${args[0]}` : `${args[1]} is already a ${r.role} of ${args[0]}`);
      return 0;
    },
  },
  {
    name: 'remove-member',
    usage: 'remove-member --org NAME --username U    (also drops their app admin rights and permissions there)',
    options: { org: { type: 'string' }, username: { type: 'string' } },
    async run({ need, deps, io }) {
      const args = need('org', 'username');
      if (!args) return 2;
      await removeMember(deps, args[0], args[1]);
      io.out(`${args[1]} left ${args[0]}`);
      return 0;
    },
  },
  {
    name: 'show-org',
    usage: 'show-org --org NAME [--json]    (policies and members)',
    options: { org: { type: 'string' }, json: { type: 'boolean' } },
    async run({ values, need, deps, io }) {
      const args = need('org');
      if (!args) return 2;
      const d = await describeOrg(deps.db, args[0]);
      if (!d) {
        io.err(`show-org: organisation "${args[0]}" does not exist`);
        return 1;
      }
      if (values.json) {
        io.out(JSON.stringify({ id: d.org.id, name: d.org.name, ...d.policies, members: d.members }, null, 2));
        return 0;
      }
      io.out(`${d.org.name} (${d.org.id})`);
      io.out(`  IP whitelist: ${d.policies.ipWhitelist?.join(', ') ?? 'none (any address)'}`);
      const until = (at: number | null) => (at === null ? 'no expiry' : `valid through ${day(at)}`);
      io.out(`  licence: ${until(d.policies.licenceExpiresAt)}`);
      io.out(`  order: ${until(d.policies.orderExpiresAt)}`);
      const sf = d.policies.secondFactor;
      io.out(
        sf
          ? `  second factor: required since ${minute(sf.requiredAt)}; members without one refused from ${minute(sf.enforcedFrom)}`
          : '  second factor: not required',
      );
      io.out(`  members (${d.members.length}):`);
      for (const m of d.members) io.out(`    ${m.username}\t${m.role}\t${m.name}`);
      return 0;
    },
  },
];
