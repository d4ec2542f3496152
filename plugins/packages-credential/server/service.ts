import type { AppContext } from '../../../server/context';
import type { RevokedCredentials } from '../../../server/plugin';
import type { PackagesCredentialsTable } from './tables';
import { AppError } from '../../../server/errors';
import { randomSecret } from '../../../server/auth/random';
import { installedApps, isMember } from '../../../server/services/accounts';
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
