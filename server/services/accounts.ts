import type { Kysely } from 'kysely';
import type { Clock } from '../clock';
import type { DB, OrganizationsTable, UsersTable } from '../db/schema';
import type { PasswordHasher } from '../auth/passwords';
import { newId } from '../auth/random';
import { cleanTextForCli } from '../clean-text';
import { DEFAULT_COLOR_SCHEME } from '../../schemas/color-scheme';

/** A rule broken by an admin operation (duplicate name, unknown org…), reported to the CLI or route. */
export class AccountError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AccountError';
  }
}

/** What the admin (or the seed) gives to create an account. */
export interface CreateUserInput {
  username: string;
  password?: string;
  name?: string;
  email?: string;
  /** Organisation name to join (becomes the current organisation). */
  org?: string;
  mustChangePassword?: boolean;
}

/** Dependencies of account operations, shared by routes, CLI and seed. */
export interface AccountDeps {
  db: Kysely<DB>;
  clock: Clock;
  hasher: PasswordHasher;
}

/** The account-name rule (letters, digits and . _ @ -, not first; 1 to 64). */
export const USERNAME_RE = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;
const APP_KEY_RE = /^[a-z][a-z0-9-]{0,39}$/;

/** Finds a user by username, case-insensitively. */
export async function findUserByUsername(db: Kysely<DB>, username: string): Promise<UsersTable | undefined> {
  return db.selectFrom('users').selectAll().where('username_lower', '=', username.toLowerCase()).executeTakeFirst();
}

/** The account an admin command names, or an AccountError the CLI prints (`user "x" does not exist`). */
export async function userNamed(db: Kysely<DB>, username: string): Promise<UsersTable> {
  const user = await findUserByUsername(db, username);
  if (!user) throw new AccountError(`user "${username}" does not exist`);
  return user;
}

/** An e-mail shown to someone who proved only a solved slider: first character, then `***@` and the domain. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  return `${email[0]}***${email.slice(at)}`;
}

/** Where a forgotten password can be recovered: the account and its verified e-mail, or why not. */
export type RecoveryTarget =
  { kind: 'ok'; user: UsersTable; email: string } | { kind: 'notFound' } | { kind: 'noEmail' };

/** Looks up the account a recovery is for: it must exist and have a verified e-mail. */
export async function recoveryTarget(db: Kysely<DB>, username: string): Promise<RecoveryTarget> {
  const user = await findUserByUsername(db, username);
  if (!user) return { kind: 'notFound' };
  if (!user.email || user.email_verified !== 1) return { kind: 'noEmail' };
  return { kind: 'ok', user, email: user.email };
}

/** Finds an organisation by name, case-insensitively. */
export async function findOrgByName(db: Kysely<DB>, name: string): Promise<OrganizationsTable | undefined> {
  return db
    .selectFrom('organizations')
    .selectAll()
    .where('name_lower', '=', name.trim().toLowerCase())
    .executeTakeFirst();
}

/** Creates an organisation; names are unique case-insensitively. */
export async function createOrg(deps: Pick<AccountDeps, 'db' | 'clock'>, name: string): Promise<OrganizationsTable> {
  const clean = name.trim();
  if (!clean || clean.length > 200) throw new AccountError('organisation name must be 1 to 200 characters');
  if (await findOrgByName(deps.db, clean)) throw new AccountError(`organisation "${clean}" already exists`);
  const org: OrganizationsTable = {
    id: newId(),
    name: clean,
    name_lower: clean.toLowerCase(),
    logo: null,
    created_at: deps.clock.now().getTime(),
    ip_whitelist: null,
    licence_expires_at: null,
    order_expires_at: null,
  };
  await deps.db.insertInto('organizations').values(org).execute();
  return org;
}

/** Installs an app (by key, e.g. codeup) in an organisation; installing twice is a no-op. */
export async function installApp(
  deps: Pick<AccountDeps, 'db' | 'clock'>,
  orgName: string,
  appKey: string,
  appId?: string,
): Promise<{ orgId: string; appKey: string; appId: string }> {
  if (!APP_KEY_RE.test(appKey))
    throw new AccountError(`app key "${appKey}" must be lower-case letters, digits and dashes`);
  const org = await findOrgByName(deps.db, orgName);
  if (!org) throw new AccountError(`organisation "${orgName}" does not exist`);
  const existing = await deps.db
    .selectFrom('org_apps')
    .selectAll()
    .where('org_id', '=', org.id)
    .where('app_key', '=', appKey)
    .executeTakeFirst();
  if (existing) return { orgId: org.id, appKey, appId: existing.app_id };
  const id = appId ?? newId();
  await deps.db
    .insertInto('org_apps')
    .values({ org_id: org.id, app_key: appKey, app_id: id, installed_at: deps.clock.now().getTime() })
    .execute();
  return { orgId: org.id, appKey, appId: id };
}

/** Adds a member to an organisation and makes it their current one when they have none. */
export async function addMembership(
  deps: Pick<AccountDeps, 'db' | 'clock'>,
  userId: string,
  orgId: string,
  role = 'member',
): Promise<void> {
  await deps.db
    .insertInto('memberships')
    .values({ org_id: orgId, user_id: userId, role, created_at: deps.clock.now().getTime() })
    .onConflict((oc) => oc.columns(['org_id', 'user_id']).doNothing())
    .execute();
  await deps.db
    .updateTable('users')
    .set({ current_org_id: orgId })
    .where('id', '=', userId)
    .where('current_org_id', 'is', null)
    .execute();
}

/** The shape an e-mail given by an admin or a directory must have (the profile's own rule is stricter). */
export const EMAIL_SHAPE_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * A new account row: the given fields over the defaults (no avatar, language, password or organisation; an e-mail
 * given here counts as verified). The caller has checked the name.
 */
export function newUserRow(
  now: number,
  fields: Pick<UsersTable, 'username'> & Partial<Omit<UsersTable, 'username' | 'username_lower'>>,
): UsersTable {
  return {
    id: newId(),
    name: fields.username,
    email: null,
    avatar: null,
    language: null,
    must_change_password: 0,
    password_hash: null,
    current_org_id: null,
    color_scheme: DEFAULT_COLOR_SCHEME,
    held_at: null,
    created_at: now,
    updated_at: now,
    ...fields,
    username_lower: fields.username.toLowerCase(),
    email_verified: fields.email_verified ?? (fields.email ? 1 : 0),
  };
}

/** Creates an account; an e-mail set by an admin counts as verified. */
export async function createUser(deps: AccountDeps, input: CreateUserInput): Promise<UsersTable> {
  const username = input.username.trim();
  if (!USERNAME_RE.test(username)) {
    throw new AccountError('username must be 1 to 64 characters: letters, digits, and . _ @ - (not first)');
  }
  if (await findUserByUsername(deps.db, username)) throw new AccountError(`user "${username}" already exists`);
  if (input.email !== undefined && !EMAIL_SHAPE_RE.test(input.email)) {
    throw new AccountError(`e-mail "${input.email}" is not valid`);
  }
  let name = username;
  if (input.name?.trim()) {
    const clean = cleanTextForCli(input.name.trim(), '--name');
    if ('problem' in clean) throw new AccountError(clean.problem);
    name = clean.text;
  }
  const org = input.org ? await findOrgByName(deps.db, input.org) : undefined;
  if (input.org && !org)
    throw new AccountError(`organisation "${input.org}" does not exist (create it with create-org)`);
  const user = newUserRow(deps.clock.now().getTime(), {
    username,
    name,
    email: input.email ?? null,
    must_change_password: input.mustChangePassword ? 1 : 0,
    password_hash: input.password ? await deps.hasher.hash(input.password) : null,
  });
  await deps.db.insertInto('users').values(user).execute();
  if (org) {
    await addMembership(deps, user.id, org.id);
    user.current_org_id = org.id;
  }
  return user;
}

/** One row of the admin user list. */
export type UserListRow = Pick<
  UsersTable,
  'id' | 'username' | 'name' | 'email' | 'must_change_password' | 'created_at'
> & { orgs: string[] };

/** Lists accounts for the admin CLI. */
export async function listUsers(db: Kysely<DB>): Promise<UserListRow[]> {
  const users = await db
    .selectFrom('users')
    .select(['id', 'username', 'name', 'email', 'must_change_password', 'created_at'])
    .orderBy('username_lower')
    .execute();
  const memberships = await db
    .selectFrom('memberships')
    .innerJoin('organizations', 'organizations.id', 'memberships.org_id')
    .select(['memberships.user_id', 'organizations.name'])
    .execute();
  return users.map((u) => ({ ...u, orgs: memberships.filter((m) => m.user_id === u.id).map((m) => m.name) }));
}

/** True when the user is a member of the organisation (the owner check for org-scoped calls). */
export async function isMember(db: Kysely<DB>, userId: string, orgId: string): Promise<boolean> {
  const row = await db
    .selectFrom('memberships')
    .select('org_id')
    .where('user_id', '=', userId)
    .where('org_id', '=', orgId)
    .executeTakeFirst();
  return !!row;
}

/** Apps installed in an organisation, in installation order. */
export async function installedApps(
  db: Kysely<DB>,
  orgId: string,
): Promise<Array<{ app_key: string; app_id: string }>> {
  return db
    .selectFrom('org_apps')
    .select(['app_key', 'app_id'])
    .where('org_id', '=', orgId)
    .orderBy('installed_at')
    .orderBy('app_key')
    .execute();
}

/** True when the database has no account yet (first start). */
export async function isEmpty(db: Kysely<DB>): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  return !row;
}

/** The organisations a user belongs to, by name (the open API's list). */
export async function memberOrganizations(
  deps: Pick<AccountDeps, 'db'>,
  userId: string,
): Promise<Array<Pick<OrganizationsTable, 'id' | 'name'>>> {
  return deps.db
    .selectFrom('organizations')
    .innerJoin('memberships', 'memberships.org_id', 'organizations.id')
    .select(['organizations.id', 'organizations.name'])
    .where('memberships.user_id', '=', userId)
    .orderBy('organizations.name_lower')
    .execute();
}
