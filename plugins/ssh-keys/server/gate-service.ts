import ipaddr from 'ipaddr.js';
import sshpk from 'sshpk';
import type { AppContext } from '../../../server/context';
import { AppError } from '../../../server/errors';
import { normalizeLocale, type MessageCode, type MessageParams, type ServerLocale } from '../../../server/i18n/index';
import { findOrgByName } from '../../../server/services/accounts';
import { memberOrgAccess, policyDenial, type OrgDenial } from '../../../server/services/organizations';
import type { CredentialRefusal } from '../../../schemas/credential-kinds';
import { GIT_REPOSITORY_NAME_MAX, type GitAccess, type GitAccessBody } from '../contract';

// Git over SSH authenticated by the service (issue 42). sshd asks, through the AuthorizedKeysCommand program, which
// account a presented key belongs to: the answer is an authorized_keys line whose forced command is the gate with the
// key's id. The gate then asks whether that key may run the client's git command on the repository now, from the
// client's address, and runs git-upload-pack / git-receive-pack itself. Repositories live on the SSH host as
// `<repository root>/<organisation name>/<repo>.git`; the service knows organisations, members and their policies,
// never the disk. Every answer of the second question is recorded as a use of the key (`ctx.credentialUses`).

/** What the forced command runs when the AuthorizedKeysCommand names no gate: a `git-gate` on sshd's PATH. */
export const DEFAULT_GATE = 'git-gate';

/**
 * Options of every line: `restrict` (no forwarding, no pty, no ~/.ssh/rc) and, for sshd older than 7.2 that lacks it,
 * the same spelled out.
 */
const LINE_OPTIONS = 'restrict,no-port-forwarding,no-agent-forwarding,no-X11-forwarding,no-pty,no-user-rc';

/** The last accepted use is written on the key itself at most this often (the durable "last used" past 90 days). */
const LAST_USED_WRITE_MS = 60_000;

/**
 * The authorized_keys line of a key the service knows (one line, newline-terminated), or '' for an unknown key, a
 * blob that is no key, or a type that is not the key's. Expired keys and keys of held accounts get their line too:
 * the gate then refuses them with the product's message, which says more than sshd's "Permission denied".
 */
export async function authorizedKeysLine(
  ctx: AppContext,
  type: string,
  blob: string,
  gate: string = DEFAULT_GATE,
): Promise<string> {
  let fingerprint: string;
  try {
    const key = sshpk.parseKey(Buffer.from(blob, 'base64'), 'rfc4253');
    fingerprint = key.fingerprint('sha256').toString();
  } catch {
    return '';
  }
  const row = await ctx.db
    .selectFrom('ssh_keys')
    .select(['id', 'key_type', 'public_key'])
    .where('fingerprint', '=', fingerprint)
    .executeTakeFirst();
  if (!row || row.key_type !== type) return '';
  // The stored key, not the presented text: the line names exactly what was added (its comment left out).
  const [storedType, storedBlob] = row.public_key.split(' ');
  // Ids are hex and the gate's path is checked by the contract's pattern: nothing here needs quoting.
  return `command="${gate} ${row.id}",${LINE_OPTIONS} ${storedType} ${storedBlob}\n`;
}

/** A repository path the way a client named it, checked: the organisation's name and the repository's. */
export interface RepositoryPath {
  org: string;
  /** The repository's name with `.git`. */
  repo: string;
}

const REPO_NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;
// eslint-disable-next-line no-control-regex -- control characters are what is refused
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * `<organisation>/<repo>[.git]` with at most one leading `/` (an ssh:// URL sends `/Org/repo.git`; the leading slash
 * is the repository root, never the file system's). Null for anything else: more or fewer parts, `..`, a name that
 * starts with a dot, backslashes or control characters.
 */
export function parseRepositoryPath(raw: string): RepositoryPath | null {
  const path = raw.startsWith('/') ? raw.slice(1) : raw;
  const parts = path.split('/');
  if (parts.length !== 2) return null;
  const [org, name] = parts;
  if (!org || !org.trim() || org.startsWith('.') || CONTROL.test(org) || org.includes('\\')) return null;
  const repo = name.endsWith('.git') ? name : `${name}.git`;
  if (repo.length > GIT_REPOSITORY_NAME_MAX || repo === '.git' || !REPO_NAME.test(repo) || repo.includes('..'))
    return null;
  return { org, repo };
}

/** The refusal reason recorded for an organisation's denial. */
const ORG_REASONS: Record<OrgDenial, CredentialRefusal> = {
  NoOrganizationPermission: 'not-member',
  OrganizationIpRestricted: 'ip-whitelist',
  OrganizationLicenceExpired: 'org-policy',
  OrganizationOrderExpired: 'org-policy',
  OrganizationSecondFactorRequired: 'org-policy',
};

/** `2026-11-27 22:08 UTC`: a moment the member reads in a terminal, whose zone the service does not know. */
const utcMinute = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** The client address as recorded and checked against whitelists: an IPv4-mapped IPv6 address as IPv4. */
function clientAddress(raw: string): string {
  if (!ipaddr.isValid(raw)) throw new AppError(400, 'InvalidParameter', { detail: 'address' });
  return ipaddr.process(raw).toString();
}

/**
 * May the key `key_id` run `command` on `repository` now, from `address`? Answers where the repository lives and
 * whose key it is, or throws the refusal (AppError 403/400/404) with the product's message; `setLocale` is told the
 * member's language first (their own setting, else what the request asked for), so the refusal is in it. Every
 * answer about an existing key is recorded as a use of it: ok, or refused with its reason.
 */
export async function checkGitAccess(
  ctx: AppContext,
  input: GitAccessBody,
  requestLocale: ServerLocale,
  setLocale: (locale: ServerLocale) => void,
): Promise<GitAccess> {
  const address = clientAddress(input.address);
  const key = await ctx.db
    .selectFrom('ssh_keys')
    .innerJoin('users', 'users.id', 'ssh_keys.user_id')
    .select([
      'ssh_keys.id',
      'ssh_keys.name',
      'ssh_keys.scope',
      'ssh_keys.expires_at',
      'ssh_keys.last_used_at',
      'users.id as user_id',
      'users.username',
      'users.language',
      'users.held_at',
      'users.must_change_password',
    ])
    .where('ssh_keys.id', '=', input.key_id)
    .executeTakeFirst();
  // Deleted since sshd let it in: nobody's key any more, nothing to record.
  if (!key) throw new AppError(404, 'SshKeyNotFound');
  const locale = normalizeLocale(key.language ?? undefined) ?? requestLocale;
  setLocale(locale);

  const now = ctx.clock.now().getTime();
  const action = `${input.command} ${input.repository.startsWith('/') ? input.repository.slice(1) : input.repository}`;
  const use = {
    kind: 'ssh-key' as const,
    credentialId: key.id,
    userId: key.user_id,
    address,
    client: input.client ?? 'git over ssh',
    action,
    name: key.name,
  };
  const refuse = async (
    reason: CredentialRefusal,
    status: number,
    code: MessageCode,
    params: MessageParams = {},
  ): Promise<never> => {
    await ctx.credentialUses.record({ ...use, outcome: 'refused', reason });
    throw new AppError(status, code, params);
  };

  if (key.expires_at !== null && now >= Number(key.expires_at))
    return refuse('expired', 403, 'SshKeyExpired', { name: key.name, date: utcMinute(Number(key.expires_at)) });
  // An account its owner held ("this wasn't me") and one that must change its password act through nothing else.
  if (key.held_at != null) return refuse('revoked', 403, 'AccountHeld');
  if (key.must_change_password === 1) return refuse('password-change', 403, 'PasswordChangeRequired');
  if (input.command === 'git-receive-pack' && key.scope !== 'read_write')
    return refuse('read-only', 403, 'SshKeyReadOnly', { name: key.name });

  const path = parseRepositoryPath(input.repository);
  if (!path) throw new AppError(400, 'GitRepositoryPathInvalid', { repository: input.repository.slice(0, 100) });
  // An organisation that does not exist and one the member is not in read the same: nothing to probe.
  const org = await findOrgByName(ctx.db, path.org);
  const access = org ? await memberOrgAccess(ctx.db, key.user_id, org.id) : undefined;
  if (!access) return refuse('not-member', 403, 'NoOrganizationPermission');
  const denial = policyDenial(access, address, now);
  if (denial)
    return refuse(
      ORG_REASONS[denial],
      403,
      denial,
      denial === 'OrganizationSecondFactorRequired' ? { org: access.name } : {},
    );

  const repository = `${access.name}/${path.repo}`;
  await ctx.credentialUses.record({ ...use, action: `${input.command} ${repository}`, outcome: 'ok' });
  if (key.last_used_at === null || now - Number(key.last_used_at) >= LAST_USED_WRITE_MS) {
    await ctx.db.updateTable('ssh_keys').set({ last_used_at: now }).where('id', '=', key.id).execute();
  }
  return { repository, username: key.username, locale };
}
