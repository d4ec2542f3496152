import type { AppContext } from '../../../server/context';
import type { RevokedCredentials } from '../../../server/plugin';
import type { PackagesCredentialsTable } from './tables';
import { sql } from 'kysely';
import { AppError } from '../../../server/errors';
import { randomSecret } from '../../../server/auth/random';
import { installedApps, isMember } from '../../../server/services/accounts';
import { CREDENTIAL_USE_RETENTION_DAYS } from '../../../schemas/credential-kinds';
import { PACKAGES_PASSWORD_DELAY_MS, type PackagesPasswordReset, type PackagesUserInfo } from '../contract';

/** Re-exported for callers that time the delay (tests move the clock by it). */
export { PACKAGES_PASSWORD_DELAY_MS };

/** App key whose installation makes the credential available. */
export const PACKAGES_APP_KEY = 'packages';

/** Refuses when the organisation in use (x-tenant-id, else the current one) lacks the packages app. */
export async function assertPackagesInstalled(
  ctx: AppContext,
  userId: string,
  orgId: string | null | undefined,
): Promise<void> {
  if (!orgId || !(await isMember(ctx.db, userId, orgId))) throw new AppError(403, 'PackagesNotInstalled');
  const apps = await installedApps(ctx.db, orgId);
  if (!apps.some((a) => a.app_key === PACKAGES_APP_KEY)) throw new AppError(403, 'PackagesNotInstalled');
}

async function ensureRow(ctx: AppContext, userId: string, username: string): Promise<PackagesCredentialsTable> {
  const found = await ctx.db
    .selectFrom('packages_credentials')
    .selectAll()
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (found) return found;
  const now = ctx.clock.now().getTime();
  const row: PackagesCredentialsTable = {
    user_id: userId,
    username,
    password_hash: null,
    previous_password_hash: null,
    effective_at: null,
    created_at: now,
    updated_at: now,
  };
  await ctx.db
    .insertInto('packages_credentials')
    .values(row)
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
  return ctx.db.selectFrom('packages_credentials').selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow();
}

const view = (row: PackagesCredentialsTable): Omit<PackagesUserInfo, 'last_use'> => ({
  username: row.username,
  has_password: row.password_hash !== null,
  effective_at: row.effective_at === null ? null : new Date(row.effective_at).toISOString(),
});

/**
 * The user's artifact-repository account (created on first look; the username is the account's username), with the
 * last download its password let through (credentialId of the packages password is the account's id).
 */
export async function getUserInfo(ctx: AppContext, userId: string, username: string): Promise<PackagesUserInfo> {
  const [row, lastUse] = await Promise.all([ensureRow(ctx, userId, username), lastUseOf(ctx, userId)]);
  return { ...view(row), last_use: lastUse };
}

async function lastUseOf(ctx: AppContext, userId: string): Promise<PackagesUserInfo['last_use']> {
  const last = (await ctx.credentialUses.lastUses('packages-password', [userId])).get(userId);
  return last ? { at: new Date(last.at).toISOString(), address: last.address, client: last.client } : null;
}

/**
 * Sets a new random password and answers it once; it is accepted from now + 10 s, and the previous
 * password keeps working until then (so clients being updated do not fail in between).
 */
export async function resetPassword(ctx: AppContext, userId: string, username: string): Promise<PackagesPasswordReset> {
  const row = await ensureRow(ctx, userId, username);
  const password = randomSecret(18);
  const hash = await ctx.hasher.hash(password);
  const now = ctx.clock.now().getTime();
  // If the last reset has not taken effect yet, the password in force is still the older one.
  const { inForce } = passwordsAt(row, now);
  const next: Partial<PackagesCredentialsTable> = {
    password_hash: hash,
    previous_password_hash: inForce,
    effective_at: now + PACKAGES_PASSWORD_DELAY_MS,
    updated_at: now,
  };
  await ctx.db.updateTable('packages_credentials').set(next).where('user_id', '=', userId).execute();
  await ctx.events.emit({ type: 'packages.password-reset', to: { userId } });
  return { ...view({ ...row, ...next }), last_use: await lastUseOf(ctx, userId), password };
}

/**
 * "This wasn't me": replaces the password in force with a random one nobody is told, at once (no grace period for the
 * previous one, which an intruder may know); the owner resets it again on the page to get one to use.
 */
export async function revokePackagesPassword(ctx: AppContext, userId: string): Promise<RevokedCredentials> {
  const row = await ctx.db
    .selectFrom('packages_credentials')
    .select(['password_hash', 'previous_password_hash'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row || (!row.password_hash && !row.previous_password_hash)) return { credential: 'packages-password', count: 0 };
  const hash = await ctx.hasher.hash(randomSecret(18));
  await ctx.db
    .updateTable('packages_credentials')
    .set({
      password_hash: hash,
      previous_password_hash: null,
      effective_at: null,
      updated_at: ctx.clock.now().getTime(),
    })
    .where('user_id', '=', userId)
    .execute();
  return { credential: 'packages-password', count: 1 };
}

/**
 * The digest a download is checked against at `now`: the newest password only from its effective time on, before
 * that the previous one (null when none is in force). `pending` is the newest one while it is not yet accepted.
 */
export function passwordsAt(
  row: Pick<PackagesCredentialsTable, 'password_hash' | 'previous_password_hash' | 'effective_at'>,
  now: number,
): { inForce: string | null; pending: string | null } {
  const early = row.effective_at !== null && now < row.effective_at;
  return early
    ? { inForce: row.previous_password_hash, pending: row.password_hash }
    : { inForce: row.password_hash, pending: null };
}

/**
 * Checks a username/password pair as the artifact repository would: the newest password only from
 * its effective time on; before that, the previous one. Time comes from the injected clock.
 */
export async function verifyPackagesPassword(ctx: AppContext, username: string, password: string): Promise<boolean> {
  const row = await ctx.db
    .selectFrom('packages_credentials')
    .selectAll()
    .where('username', '=', username)
    .executeTakeFirst();
  const hash = row ? passwordsAt(row, ctx.clock.now().getTime()).inForce : null;
  if (!hash) {
    await ctx.hasher.dummyVerify(password);
    return false;
  }
  return ctx.hasher.verify(hash, password);
}

/** What a download check reads: the account with its digests and flags (null for an unknown name), and the counts. */
export interface DownloadState {
  account: {
    user_id: string;
    username: string;
    password_hash: string | null;
    previous_password_hash: string | null;
    effective_at: number | null;
    held_at: number | null;
    must_change_password: number;
  } | null;
  /** Wrong passwords of the client address in the current window. */
  fromAddress: number;
  /** Wrong passwords of the username in the current window. */
  forName: number;
}

/**
 * The account of a download's username and both failure counts (`keys` of ctx.rateLimits, read as its peek reads
 * them) in one statement: a busy CI job's every download reads them, so one round trip, not three.
 */
export async function readDownloadState(
  ctx: AppContext,
  username: string,
  keys: { address: string; username: string },
): Promise<DownloadState> {
  const now = ctx.clock.now().getTime();
  const live = (t: 'fa' | 'fn') =>
    sql<number>`case when ${sql.ref(`${t}.window_start`)} + ${sql.ref(`${t}.window_ms`)} > ${now} then ${sql.ref(`${t}.count`)} else 0 end`;
  const r = await ctx.db
    .selectFrom(sql<{ one: number }>`(select 1 as one)`.as('base'))
    .leftJoin('packages_credentials as p', (j) => j.on('p.username', '=', username))
    .leftJoin('users as u', 'u.id', 'p.user_id')
    .leftJoin('rate_limits as fa', (j) => j.on('fa.key', '=', keys.address))
    .leftJoin('rate_limits as fn', (j) => j.on('fn.key', '=', keys.username))
    .select([
      'p.user_id',
      'p.username',
      'p.password_hash',
      'p.previous_password_hash',
      'p.effective_at',
      'u.held_at',
      'u.must_change_password',
      live('fa').as('from_address'),
      live('fn').as('for_name'),
    ])
    .executeTakeFirstOrThrow();
  const account =
    r.user_id && r.username
      ? {
          user_id: r.user_id,
          username: r.username,
          password_hash: r.password_hash,
          previous_password_hash: r.previous_password_hash,
          effective_at: r.effective_at == null ? null : Number(r.effective_at),
          held_at: r.held_at == null ? null : Number(r.held_at),
          must_change_password: Number(r.must_change_password ?? 0),
        }
      : null;
  return { account, fromAddress: Number(r.from_address ?? 0), forName: Number(r.for_name ?? 0) };
}

/** True when the artifact password let a download through from `address` within the uses' retention (90 days). */
export async function workedFrom(ctx: AppContext, userId: string, address: string): Promise<boolean> {
  const since = ctx.clock.now().getTime() - CREDENTIAL_USE_RETENTION_DAYS * 24 * 60 * 60 * 1000;
  const row = await ctx.db
    .selectFrom('credential_uses')
    .select('id')
    .where('kind', '=', 'packages-password')
    .where('credential_id', '=', userId)
    .where('address', '=', address)
    .where('outcome', '=', 'ok')
    .where('at', '>', since)
    .limit(1)
    .executeTakeFirst();
  return !!row;
}
