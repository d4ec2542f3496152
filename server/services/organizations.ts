import ipaddr from 'ipaddr.js';
import type { CompiledQuery, ExpressionBuilder, Kysely } from 'kysely';
import type { Clock } from '../clock';
import type { DB, OrganizationsTable } from '../db/schema';
import type { CoreCode } from '../i18n/index';
import { newId } from '../auth/random';
import { SECOND_FACTOR_GRACE_DAYS_MAX } from '../../schemas/second-factor-limits';
import { AccountError, findOrgByName, findUserByUsername, installedApps, isMember } from './accounts';

/** Database and time: what the organisation policy operations need (routes, CLI and test kit alike). */
export interface OrgDeps {
  db: Kysely<DB>;
  clock: Clock;
}

/** A member's role in an organisation; 'admin' is an organisation administrator. */
export type OrgRole = 'member' | 'admin';

/** The roles a membership may hold, for validation at the edges (CLI, seed). */
export const ORG_ROLES: readonly OrgRole[] = ['member', 'admin'];

// ---------------------------------------------------------------------------------------------------------------
// CIDR lists

/** One whitelist entry, parsed: the network address and the prefix length (IPv4-mapped IPv6 already made IPv4). */
export type CidrRange = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** The outcome of parsing one whitelist entry: its canonical text and range, or why it is refused. */
export type CidrParse = { ok: true; cidr: string; range: CidrRange } | { ok: false; reason: string };

const PREFIX_RE = /^\d{1,3}$/;

/**
 * Parses one whitelist entry (`10.0.0.0/8`, `2001:db8::/32`, a bare address = /32 or /128). Strict so a typo is
 * refused rather than silently widening access: four-part decimal IPv4 only, no zone ids, prefix in range, no
 * host bits past the prefix. An IPv4-mapped IPv6 range of /96 or longer becomes the IPv4 range it denotes, so
 * entries and clients compare as IPv4 whichever way they were written.
 */
export function parseCidr(entry: string): CidrParse {
  const text = entry.trim();
  const slash = text.indexOf('/');
  const addrText = slash < 0 ? text : text.slice(0, slash);
  const prefixText = slash < 0 ? undefined : text.slice(slash + 1);
  if (addrText.includes('%')) return { ok: false, reason: 'zone ids (%…) are not allowed' };
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  if (ipaddr.IPv4.isValidFourPartDecimal(addrText)) addr = ipaddr.IPv4.parse(addrText);
  else if (ipaddr.IPv6.isValid(addrText)) addr = ipaddr.IPv6.parse(addrText);
  else return { ok: false, reason: 'not an IPv4 or IPv6 address' };
  const max = addr.kind() === 'ipv4' ? 32 : 128;
  let bits = max;
  if (prefixText !== undefined) {
    bits = Number(prefixText);
    if (!PREFIX_RE.test(prefixText) || bits > max) {
      return { ok: false, reason: `the prefix length must be 0 to ${max}` };
    }
  }
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
    addr = (addr as ipaddr.IPv6).toIPv4Address();
    bits -= 96;
  }
  const network = networkOf(addr, bits);
  if (network.toString() !== addr.toString()) {
    return { ok: false, reason: `it has host bits set (the network is ${network.toString()}/${bits})` };
  }
  return { ok: true, cidr: `${addr.toString()}/${bits}`, range: [addr, bits] };
}

function networkOf(addr: ipaddr.IPv4 | ipaddr.IPv6, bits: number): ipaddr.IPv4 | ipaddr.IPv6 {
  const bytes = addr.toByteArray();
  for (let i = 0; i < bytes.length; i++) {
    const keep = Math.max(0, Math.min(8, bits - i * 8));
    bytes[i] &= (0xff << (8 - keep)) & 0xff;
  }
  return ipaddr.fromByteArray(bytes);
}

/**
 * Parses an admin's whitelist (entries separated by commas or white space; empty = no whitelist) into canonical,
 * de-duplicated CIDRs. Every malformed entry is named in one AccountError, so the CLI refuses the whole list.
 */
export function parseIpWhitelist(text: string): string[] {
  const entries = text
    .split(/[\s,]+/)
    .map((e) => e.trim())
    .filter(Boolean);
  const out: string[] = [];
  const bad: string[] = [];
  for (const e of entries) {
    const p = parseCidr(e);
    if (!p.ok) bad.push(`"${e}" (${p.reason})`);
    else if (!out.includes(p.cidr)) out.push(p.cidr);
  }
  if (bad.length) {
    throw new AccountError(
      `malformed CIDR ${bad.length === 1 ? 'entry' : 'entries'} ${bad.join(', ')}; nothing was changed`,
    );
  }
  return out;
}

const parsedLists = new Map<string, CidrRange[] | null>();

/**
 * The stored whitelist (JSON text of canonical CIDRs) as ranges, parsed once per distinct text; null when it
 * restricts nothing (an empty list). Stored entries that do not parse are skipped, so a damaged list admits
 * fewer addresses, never more; a list that is not JSON admits nobody.
 */
function rangesOf(stored: string): CidrRange[] | null {
  let ranges = parsedLists.get(stored);
  if (ranges === undefined) {
    let list: unknown;
    try {
      list = JSON.parse(stored);
    } catch {
      list = [null];
    }
    const items = Array.isArray(list) ? list : [null];
    ranges = items.length ? [] : null;
    for (const e of items) {
      const p = typeof e === 'string' ? parseCidr(e) : null;
      if (p?.ok) ranges!.push(p.range);
    }
    if (parsedLists.size >= 1000) parsedLists.clear();
    parsedLists.set(stored, ranges);
  }
  return ranges;
}

/**
 * True when `address` (a socket or forwarded client address) is inside one of `cidrs`. IPv4-mapped IPv6 clients
 * count as IPv4; otherwise families never mix (`::/0` admits IPv6 clients only, `0.0.0.0/0` IPv4 only).
 */
export function addressInRanges(address: string, ranges: readonly CidrRange[]): boolean {
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = ipaddr.process(address);
  } catch {
    return false;
  }
  return ranges.some(([net, bits]) => net.kind() === addr.kind() && addr.match(net, bits));
}

/** `addressInRanges` for a list of CIDR strings (tests, the CLI's explanations). */
export function addressInCidrs(address: string, cidrs: readonly string[]): boolean {
  return addressInRanges(
    address,
    cidrs.flatMap((c) => {
      const p = parseCidr(c);
      return p.ok ? [p.range] : [];
    }),
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Policies

/** An organisation's enforced policies as the CLI and tests read them. */
export interface OrgPolicies {
  /** Canonical CIDRs the organisation's requests must come from; null = anywhere. */
  ipWhitelist: string[] | null;
  /** Epoch ms from which the licence is expired; null = never. */
  licenceExpiresAt: number | null;
  /** Epoch ms from which the standard-edition order is expired; null = never. */
  orderExpiresAt: number | null;
  /** Members must have a second factor (absent when a caller does not change it; null = not required). */
  secondFactor?: SecondFactorPolicy | null;
}

/** An organisation's second-factor requirement: since when, the grace it gives, and when it starts refusing. */
export interface SecondFactorPolicy {
  /** Epoch ms the requirement was set. */
  requiredAt: number;
  /** Days a member without a second factor is still admitted (warned) after `requiredAt`. */
  graceDays: number;
  /** Epoch ms from which a member without one is refused: `requiredAt` plus the grace. */
  enforcedFrom: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The policy of the stored columns; null when none is required. */
function secondFactorPolicyOf(requiredAt: number | null | undefined, graceDays: number | null | undefined) {
  if (requiredAt === null || requiredAt === undefined) return null;
  const days = Number(graceDays ?? 0);
  return { requiredAt: Number(requiredAt), graceDays: days, enforcedFrom: Number(requiredAt) + days * DAY_MS };
}

/** Policies of an organisation by id; undefined when it does not exist. */
export async function readOrgPolicies(db: Kysely<DB>, orgId: string): Promise<OrgPolicies | undefined> {
  const row = await db
    .selectFrom('organizations')
    .select([
      'ip_whitelist',
      'licence_expires_at',
      'order_expires_at',
      'second_factor_required_at',
      'second_factor_grace_days',
    ])
    .where('id', '=', orgId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    ipWhitelist: row.ip_whitelist ? (JSON.parse(row.ip_whitelist) as string[]) : null,
    licenceExpiresAt: row.licence_expires_at,
    orderExpiresAt: row.order_expires_at,
    secondFactor: secondFactorPolicyOf(row.second_factor_required_at, row.second_factor_grace_days),
  };
}

/** Changes some policies of an organisation by id (absent fields stay); an empty whitelist is stored as none. */
export async function updateOrgPolicies(db: Kysely<DB>, orgId: string, change: Partial<OrgPolicies>): Promise<void> {
  const set: Partial<
    Pick<
      OrganizationsTable,
      | 'ip_whitelist'
      | 'licence_expires_at'
      | 'order_expires_at'
      | 'second_factor_required_at'
      | 'second_factor_grace_days'
    >
  > = {};
  if (change.ipWhitelist !== undefined) {
    const list = change.ipWhitelist ? parseIpWhitelist(change.ipWhitelist.join(',')) : [];
    set.ip_whitelist = list.length ? JSON.stringify(list) : null;
  }
  if (change.licenceExpiresAt !== undefined) set.licence_expires_at = change.licenceExpiresAt;
  if (change.orderExpiresAt !== undefined) set.order_expires_at = change.orderExpiresAt;
  if (change.secondFactor !== undefined) {
    set.second_factor_required_at = change.secondFactor?.requiredAt ?? null;
    set.second_factor_grace_days = change.secondFactor ? graceDaysOf(change.secondFactor.graceDays) : null;
  }
  if (!Object.keys(set).length) return;
  await db.updateTable('organizations').set(set).where('id', '=', orgId).execute();
}

async function orgNamed(db: Kysely<DB>, name: string): Promise<OrganizationsTable> {
  const org = await findOrgByName(db, name);
  if (!org) throw new AccountError(`organisation "${name}" does not exist`);
  return org;
}

/** Sets (or with an empty text clears) an organisation's IP whitelist from the CLI's comma list; returns it. */
export async function setIpWhitelist(
  deps: Pick<OrgDeps, 'db'>,
  orgName: string,
  cidrs: string,
): Promise<{ orgId: string; list: string[] }> {
  const list = parseIpWhitelist(cidrs);
  const org = await orgNamed(deps.db, orgName);
  await updateOrgPolicies(deps.db, org.id, { ipWhitelist: list });
  return { orgId: org.id, list };
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * The CLI's `--expires` value as the instant the policy starts refusing: `none` (or empty) = null, `YYYY-MM-DD` =
 * the start of the next day in UTC, so the named day is the last one that works.
 */
export function parseExpiryDate(text: string): number | null {
  const t = text.trim().toLowerCase();
  if (t === '' || t === 'none') return null;
  const m = DATE_RE.exec(t);
  const [y, mo, d] = m ? [Number(m[1]), Number(m[2]) - 1, Number(m[3])] : [0, 0, 0];
  const day = new Date(Date.UTC(y, mo, d));
  // Date.UTC rolls 2026-02-30 over into March; a real date survives the round trip.
  if (!m || day.getUTCFullYear() !== y || day.getUTCMonth() !== mo || day.getUTCDate() !== d) {
    throw new AccountError(`"${text}" is not a date: use YYYY-MM-DD (the last valid day, UTC) or none`);
  }
  return Date.UTC(y, mo, d + 1);
}

/** Sets or clears (`none`) one of an organisation's expiry dates; returns the instant it takes effect (or null). */
async function setExpiry(
  deps: Pick<OrgDeps, 'db'>,
  orgName: string,
  expires: string,
  field: 'licenceExpiresAt' | 'orderExpiresAt',
): Promise<number | null> {
  const at = parseExpiryDate(expires);
  const org = await orgNamed(deps.db, orgName);
  await updateOrgPolicies(deps.db, org.id, { [field]: at });
  return at;
}

/** Sets or clears (`none`) an organisation's licence expiry; returns the instant it takes effect (or null). */
export function setLicenceExpiry(deps: Pick<OrgDeps, 'db'>, orgName: string, expires: string): Promise<number | null> {
  return setExpiry(deps, orgName, expires, 'licenceExpiresAt');
}

/** Sets or clears (`none`) an organisation's standard-edition order expiry. */
export function setOrderExpiry(deps: Pick<OrgDeps, 'db'>, orgName: string, expires: string): Promise<number | null> {
  return setExpiry(deps, orgName, expires, 'orderExpiresAt');
}

// ---------------------------------------------------------------------------------------------------------------
// The second-factor requirement

/** A grace period as stored: a whole number of days from 0 to SECOND_FACTOR_GRACE_DAYS_MAX, else refused. */
function graceDaysOf(days: number): number {
  if (!Number.isInteger(days) || days < 0 || days > SECOND_FACTOR_GRACE_DAYS_MAX) {
    throw new AccountError(
      `the grace period must be a whole number of days from 0 to ${SECOND_FACTOR_GRACE_DAYS_MAX}; nothing was changed`,
    );
  }
  return days;
}

/** The CLI's `--grace-days` text as days (digits only, 0 to the maximum); refused otherwise. */
export function parseGraceDays(text: string | undefined): number {
  const t = (text ?? '0').trim();
  if (!/^\d{1,4}$/.test(t)) {
    throw new AccountError(
      `"${text}" is not a number of days: give 0 to ${SECOND_FACTOR_GRACE_DAYS_MAX}; nothing was changed`,
    );
  }
  return graceDaysOf(Number(t));
}

/**
 * True where the member row's account has a second factor: a confirmed authenticator app or a passkey (recovery codes
 * alone are none), as `SecondFactors.hasFactor` says. An expression, so the tenant check reads it in its one query.
 */
function memberHasSecondFactor(eb: ExpressionBuilder<DB, 'memberships'>) {
  return eb.or([
    eb.exists(
      eb
        .selectFrom('totp_factors')
        .select('totp_factors.user_id')
        .whereRef('totp_factors.user_id', '=', 'memberships.user_id')
        .where('totp_factors.confirmed_at', 'is not', null),
    ),
    eb.exists(
      eb
        .selectFrom('webauthn_credentials')
        .select('webauthn_credentials.id')
        .whereRef('webauthn_credentials.user_id', '=', 'memberships.user_id'),
    ),
  ]);
}

/** Members of an organisation without a second factor (usernames, sorted), and how many members it has. */
export async function membersWithoutSecondFactor(
  db: Kysely<DB>,
  orgId: string,
): Promise<{ without: string[]; members: number }> {
  const rows = await db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select((eb) => ['users.username', memberHasSecondFactor(eb).as('has_factor')])
    .where('memberships.org_id', '=', orgId)
    .orderBy('users.username_lower')
    .execute();
  return { without: rows.filter((r) => !r.has_factor).map((r) => r.username), members: rows.length };
}

/** What `requireSecondFactor` did: the policy now in force (null when lifted), the one before, and who lacks one. */
export interface SecondFactorChange {
  orgId: string;
  /** The organisation's name as stored. */
  org: string;
  policy: SecondFactorPolicy | null;
  previous: SecondFactorPolicy | null;
  /** Usernames of the members without a second factor, sorted. */
  without: string[];
  /** How many members the organisation has. */
  members: number;
}

/**
 * Requires a second factor of an organisation's members with `graceDays` of grace, or (null) lifts the requirement.
 * Requiring it again keeps the original start, so only the grace (and with it the day it starts refusing) changes.
 */
export async function requireSecondFactor(
  deps: OrgDeps,
  orgName: string,
  graceDays: number | null,
): Promise<SecondFactorChange> {
  const org = await orgNamed(deps.db, orgName);
  const previous = secondFactorPolicyOf(org.second_factor_required_at, org.second_factor_grace_days);
  const policy =
    graceDays === null
      ? null
      : secondFactorPolicyOf(previous?.requiredAt ?? deps.clock.now().getTime(), graceDaysOf(graceDays));
  await updateOrgPolicies(deps.db, org.id, { secondFactor: policy });
  return { orgId: org.id, org: org.name, policy, previous, ...(await membersWithoutSecondFactor(deps.db, org.id)) };
}

// ---------------------------------------------------------------------------------------------------------------
// Members

async function userNamed(db: Kysely<DB>, username: string) {
  const user = await findUserByUsername(db, username);
  if (!user) throw new AccountError(`user "${username}" does not exist`);
  return user;
}

/**
 * Puts a user in an organisation with a role (adds the membership, or changes the role of an existing one); the
 * organisation becomes their current one when they have none. Returns whether the membership is new.
 */
export async function addMember(
  deps: OrgDeps,
  orgName: string,
  username: string,
  role?: OrgRole,
): Promise<{ orgId: string; userId: string; added: boolean; role: OrgRole }> {
  const org = await orgNamed(deps.db, orgName);
  const user = await userNamed(deps.db, username);
  const existing = await deps.db
    .selectFrom('memberships')
    .select('role')
    .where('org_id', '=', org.id)
    .where('user_id', '=', user.id)
    .executeTakeFirst();
  if (existing) {
    if (role && existing.role !== role) {
      await deps.db
        .updateTable('memberships')
        .set({ role })
        .where('org_id', '=', org.id)
        .where('user_id', '=', user.id)
        .execute();
    }
    return { orgId: org.id, userId: user.id, added: false, role: role ?? (existing.role as OrgRole) };
  }
  await deps.db
    .insertInto('memberships')
    .values({ org_id: org.id, user_id: user.id, role: role ?? 'member', created_at: deps.clock.now().getTime() })
    .execute();
  await deps.db
    .updateTable('users')
    .set({ current_org_id: org.id })
    .where('id', '=', user.id)
    .where('current_org_id', 'is', null)
    .execute();
  return { orgId: org.id, userId: user.id, added: true, role: role ?? 'member' };
}

/** Makes a user an organisation admin (joining them when needed), or with `revoke` a plain member again. */
export async function setOrgAdmin(
  deps: OrgDeps,
  orgName: string,
  username: string,
  revoke = false,
): Promise<{ added: boolean; role: OrgRole }> {
  if (revoke) {
    const org = await orgNamed(deps.db, orgName);
    const user = await userNamed(deps.db, username);
    const r = await deps.db
      .updateTable('memberships')
      .set({ role: 'member' })
      .where('org_id', '=', org.id)
      .where('user_id', '=', user.id)
      .executeTakeFirst();
    if (!Number(r.numUpdatedRows)) throw new AccountError(`user "${username}" is not a member of "${org.name}"`);
    return { added: false, role: 'member' };
  }
  const r = await addMember(deps, orgName, username, 'admin');
  return { added: r.added, role: r.role };
}

/**
 * Makes a member an administrator of one of the organisation's installed apps, or (`revoke`) takes it back; the
 * application entry guard's admin list and the `appAdmins` call read these rows. Returns whether anything changed.
 */
export async function setAppAdmin(
  deps: Pick<OrgDeps, 'db'>,
  orgName: string,
  appKey: string,
  username: string,
  revoke = false,
): Promise<boolean> {
  const org = await orgNamed(deps.db, orgName);
  const user = await userNamed(deps.db, username);
  const key = appKey.trim().toLowerCase();
  if (!(await installedApps(deps.db, org.id)).some((a) => a.app_key === key))
    throw new AccountError(`app "${appKey}" is not installed in "${org.name}"`);
  const row = { org_id: org.id, app_key: key, user_id: user.id };
  if (revoke) {
    const r = await deps.db
      .deleteFrom('app_admins')
      .where('org_id', '=', row.org_id)
      .where('app_key', '=', row.app_key)
      .where('user_id', '=', row.user_id)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }
  if (!(await isMember(deps.db, user.id, org.id)))
    throw new AccountError(`user "${username}" is not a member of "${org.name}"`);
  const r = await deps.db
    .insertInto('app_admins')
    .values(row)
    .onConflict((oc) => oc.columns(['org_id', 'app_key', 'user_id']).doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
}

/**
 * Takes a user out of an organisation with everything they held there (app admin rights, app permissions). When
 * it was their current organisation, another of theirs (by name) becomes current, or none.
 */
export async function removeMember(deps: OrgDeps, orgName: string, username: string): Promise<void> {
  const org = await orgNamed(deps.db, orgName);
  const user = await userNamed(deps.db, username);
  await deps.db.transaction().execute(async (trx) => {
    const r = await trx
      .deleteFrom('memberships')
      .where('org_id', '=', org.id)
      .where('user_id', '=', user.id)
      .executeTakeFirst();
    if (!Number(r.numDeletedRows)) throw new AccountError(`user "${username}" is not a member of "${org.name}"`);
    await trx.deleteFrom('app_admins').where('org_id', '=', org.id).where('user_id', '=', user.id).execute();
    await trx.deleteFrom('app_permissions').where('org_id', '=', org.id).where('user_id', '=', user.id).execute();
    if (user.current_org_id === org.id) {
      const next = await trx
        .selectFrom('memberships')
        .innerJoin('organizations', 'organizations.id', 'memberships.org_id')
        .select('organizations.id')
        .where('memberships.user_id', '=', user.id)
        .orderBy('organizations.name_lower')
        .limit(1)
        .executeTakeFirst();
      await trx
        .updateTable('users')
        .set({ current_org_id: next?.id ?? null })
        .where('id', '=', user.id)
        .execute();
    }
  });
}

/** One member of an organisation as the CLI lists them. */
export interface OrgMemberRow {
  username: string;
  name: string;
  role: string;
}

/** Members of an organisation by name (admins first), for `show-org`. */
export async function listOrgMembers(db: Kysely<DB>, orgId: string): Promise<OrgMemberRow[]> {
  return db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(['users.username', 'users.name', 'memberships.role'])
    .where('memberships.org_id', '=', orgId)
    .orderBy('memberships.role')
    .orderBy('users.username_lower')
    .execute();
}

/** An organisation by name with its policies, for `show-org`; undefined when it does not exist. */
export async function describeOrg(
  db: Kysely<DB>,
  name: string,
): Promise<{ org: OrganizationsTable; policies: OrgPolicies; members: OrgMemberRow[] } | undefined> {
  const org = await findOrgByName(db, name);
  if (!org) return undefined;
  const policies = (await readOrgPolicies(db, org.id))!;
  return { org, policies, members: await listOrgMembers(db, org.id) };
}

// ---------------------------------------------------------------------------------------------------------------
// Many organisations at once

/** What `createOrganizationsBulk` makes: organisations named `names`, each with the same apps and members. */
export interface BulkOrgsInput {
  /** Organisation names (unique case-insensitively, none existing yet). */
  names: readonly string[];
  /** User ids to make members of every organisation. */
  memberIds?: readonly string[];
  /** Role of those memberships. */
  role?: OrgRole;
  /** App keys installed in every organisation. */
  apps?: readonly string[];
}

/** Rows per INSERT: well under SQLite's 32766 and PostgreSQL's 65535 bound parameters. */
const BATCH = 500;

/**
 * Creates many organisations with their memberships and apps in batched INSERTs inside one transaction (seeding
 * 10,000 memberships for the organisation-list bench and tests). Members without a current organisation get the
 * first one. Returns the ids in the order of `names`.
 */
export async function createOrganizationsBulk(deps: OrgDeps, input: BulkOrgsInput): Promise<string[]> {
  const now = deps.clock.now().getTime();
  const lower = new Set<string>();
  const orgs: OrganizationsTable[] = input.names.map((n) => {
    const name = n.trim();
    if (!name || name.length > 200) throw new AccountError('organisation name must be 1 to 200 characters');
    if (lower.has(name.toLowerCase())) throw new AccountError(`organisation "${name}" is named twice`);
    lower.add(name.toLowerCase());
    return {
      id: newId(),
      name,
      name_lower: name.toLowerCase(),
      logo: null,
      created_at: now,
      ip_whitelist: null,
      licence_expires_at: null,
      order_expires_at: null,
      second_factor_required_at: null,
      second_factor_grace_days: null,
    };
  });
  const chunks = <T>(rows: T[]): T[][] =>
    Array.from({ length: Math.ceil(rows.length / BATCH) }, (_, i) => rows.slice(i * BATCH, (i + 1) * BATCH));
  await deps.db.transaction().execute(async (trx) => {
    for (const part of chunks(orgs)) await trx.insertInto('organizations').values(part).execute();
    const members = orgs.flatMap((o) =>
      (input.memberIds ?? []).map((userId) => ({
        org_id: o.id,
        user_id: userId,
        role: input.role ?? 'member',
        created_at: now,
      })),
    );
    for (const part of chunks(members)) await trx.insertInto('memberships').values(part).execute();
    const apps = orgs.flatMap((o) =>
      (input.apps ?? []).map((appKey, i) => ({
        org_id: o.id,
        app_key: appKey,
        app_id: newId(),
        installed_at: now + i,
      })),
    );
    for (const part of chunks(apps)) await trx.insertInto('org_apps').values(part).execute();
    if (orgs.length && input.memberIds?.length) {
      for (const ids of chunks([...input.memberIds])) {
        await trx
          .updateTable('users')
          .set({ current_org_id: orgs[0].id })
          .where('id', 'in', ids)
          .where('current_org_id', 'is', null)
          .execute();
      }
    }
  });
  return orgs.map((o) => o.id);
}

// ---------------------------------------------------------------------------------------------------------------
// The request-time check

/** What a request in an organisation's context needs to know, read with one query. */
export interface OrgAccess {
  id: string;
  name: string;
  logo: string | null;
  /** The caller's role there. */
  role: OrgRole;
  ipWhitelist: string | null;
  licenceExpiresAt: number | null;
  orderExpiresAt: number | null;
  /**
   * When the organisation starts refusing this member for having no second factor; null when it requires none or
   * the member has one.
   */
  secondFactorDeadline: number | null;
}

/** The tenant check's query built for `db` once (its two parameters swapped per request): it runs on every one. */
function accessQuery(db: Kysely<DB>) {
  return db
    .selectFrom('memberships')
    .innerJoin('organizations', 'organizations.id', 'memberships.org_id')
    .select((eb) => [
      'organizations.id',
      'organizations.name',
      'organizations.logo',
      'memberships.role',
      'organizations.ip_whitelist',
      'organizations.licence_expires_at',
      'organizations.order_expires_at',
      'organizations.second_factor_required_at',
      'organizations.second_factor_grace_days',
      // Asked only of an organisation that requires one (CASE without ELSE: null), in this same query.
      eb
        .case()
        .when('organizations.second_factor_required_at', 'is not', null)
        .then(memberHasSecondFactor(eb))
        .end()
        .as('has_factor'),
    ])
    .where('memberships.user_id', '=', '')
    .where('memberships.org_id', '=', '')
    .compile();
}

type AccessRow = ReturnType<typeof accessQuery> extends CompiledQuery<infer R> ? R : never;
const accessQueries = new WeakMap<Kysely<DB>, CompiledQuery<AccessRow>>();

/**
 * The organisation as its member `userId` may enter it; undefined when not a member (or no such organisation). One
 * query, compiled once per database (building and compiling it each time cost more than running it).
 */
export async function memberOrgAccess(db: Kysely<DB>, userId: string, orgId: string): Promise<OrgAccess | undefined> {
  let query = accessQueries.get(db);
  if (!query) accessQueries.set(db, (query = accessQuery(db)));
  const row = (await db.executeQuery<AccessRow>({ ...query, parameters: [userId, orgId] })).rows[0];
  if (!row) return undefined;
  const policy = row.has_factor
    ? null
    : secondFactorPolicyOf(row.second_factor_required_at, row.second_factor_grace_days);
  return {
    id: row.id,
    name: row.name,
    logo: row.logo,
    role: row.role === 'admin' ? 'admin' : 'member',
    ipWhitelist: row.ip_whitelist,
    licenceExpiresAt: row.licence_expires_at,
    orderExpiresAt: row.order_expires_at,
    secondFactorDeadline: policy?.enforcedFrom ?? null,
  };
}

/** Apps installed in an organisation the tenant hook already admitted the caller to (no second membership check). */
export async function admittedOrgApps(
  deps: Pick<OrgDeps, 'db'>,
  orgId: string,
): Promise<Array<{ app_key: string; app_id: string }>> {
  return installedApps(deps.db, orgId);
}

/** Why an organisation refuses a request, as the error code answered (403). */
export type OrgDenial = Extract<
  CoreCode,
  | 'NoOrganizationPermission'
  | 'OrganizationIpRestricted'
  | 'OrganizationLicenceExpired'
  | 'OrganizationOrderExpired'
  | 'OrganizationSecondFactorRequired'
>;

/**
 * The policy a member's request breaks, in the order they are checked (IP whitelist, licence, order, then the second
 * factor: last, so a member is told to enrol only when that alone stands in the way), or null. `clientAddress` is
 * the request's address as the service trusts it (`req.ip`).
 */
export function policyDenial(access: OrgAccess, clientAddress: string, now: number): OrgDenial | null {
  const ranges = access.ipWhitelist ? rangesOf(access.ipWhitelist) : null;
  if (ranges && !addressInRanges(clientAddress, ranges)) return 'OrganizationIpRestricted';
  if (access.licenceExpiresAt !== null && now >= access.licenceExpiresAt) return 'OrganizationLicenceExpired';
  if (access.orderExpiresAt !== null && now >= access.orderExpiresAt) return 'OrganizationOrderExpired';
  if (access.secondFactorDeadline !== null && now >= access.secondFactorDeadline)
    return 'OrganizationSecondFactorRequired';
  return null;
}
