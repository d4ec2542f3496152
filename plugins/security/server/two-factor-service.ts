import type { Kysely } from 'kysely';
import type { AppContext, SessionUser } from '../../../server/context';
import type { DB } from '../../../server/db/schema';
import type { EventBus } from '../../../server/events';
import { AppError } from '../../../server/errors';
import { cleanText } from '../../../server/clean-text';
import type { FactorSummary, PasskeyInfo, SecondFactors } from '../../../server/auth/second-factor/types';
import {
  WEBAUTHN_CREDENTIALS_MAX,
  type FactorAdded,
  type Passkey,
  type RegistrationResponse,
  type TwoFactorState,
} from '../contract';

/**
 * The security page's second-factor changes (issue 41, item 1) over the core's `ctx.secondFactors`: what the routes
 * and the admin CLI do besides calling it — the account's first factor brings its recovery codes, the last one may
 * not go while an organisation requires one, a passkey's name is clean text, the passkeys are limited, and every
 * change is an account event (the history, the inbox and the security mail hear of it). Nothing here ends sessions:
 * the page offers that afterwards (the end-others call).
 */

/** What these operations use of the service. */
export type TwoFactorDeps = Pick<AppContext, 'db' | 'clock' | 'events' | 'secondFactors'>;

const DAY_MS = 24 * 60 * 60 * 1000;

/** A passkey as the page lists it. */
export function toPasskey(p: PasskeyInfo): Passkey {
  return {
    id: p.id,
    name: p.name,
    created_at: new Date(p.createdAt).toISOString(),
    last_used_at: p.lastUsedAt === null ? null : new Date(p.lastUsedAt).toISOString(),
    discoverable: p.discoverable,
  };
}

/**
 * The organisations of the account that require a second factor, nearest deadline first (the day each starts
 * refusing a member without one: its start plus its grace). Read from the organisation policy's columns (migration
 * 071); none when no organisation of the account requires one.
 */
export async function requiringOrgs(db: Kysely<DB>, userId: string): Promise<{ org: string; deadline: number }[]> {
  const rows = await db
    .selectFrom('memberships')
    .innerJoin('organizations', 'organizations.id', 'memberships.org_id')
    .select([
      'organizations.name',
      'organizations.second_factor_required_at as required_at',
      'organizations.second_factor_grace_days as grace_days',
    ])
    .where('memberships.user_id', '=', userId)
    .where('organizations.second_factor_required_at', 'is not', null)
    .execute();
  return rows
    .map((r) => ({ org: r.name, deadline: Number(r.required_at) + Number(r.grace_days ?? 0) * DAY_MS }))
    .sort((a, b) => a.deadline - b.deadline || a.org.localeCompare(b.org));
}

/** The page's state from the core's summary and the organisations' requirements. */
export function toState(summary: FactorSummary, required: { org: string; deadline: number }[]): TwoFactorState {
  const first = required[0];
  return {
    totp: summary.totpSince === null ? null : { since: new Date(summary.totpSince).toISOString() },
    passkeys: summary.passkeys.map(toPasskey),
    recovery_codes_left: summary.recoveryCodesLeft,
    required_by: first ? { org: first.org, deadline: new Date(first.deadline).toISOString() } : null,
  };
}

/** The account's second factors as the security page shows them. */
export async function twoFactorState(deps: Pick<TwoFactorDeps, 'db' | 'secondFactors'>, userId: string) {
  const [summary, required] = await Promise.all([deps.secondFactors.summary(userId), requiringOrgs(deps.db, userId)]);
  return toState(summary, required);
}

/** A passkey's name as stored: trimmed, not empty, and clean (schemas/clean-text.ts). */
export function passkeyName(value: string): string {
  const name = value.trim();
  if (!name) throw new AppError(400, 'InvalidParameter', { detail: 'name' });
  return cleanText(name, { en_US: 'Passkey name', zh_CN: '通行密钥名称' });
}

/** The core's view of who a factor is made for. */
const factorUser = (u: SessionUser) => ({ id: u.id, username: u.username, name: u.name });

/** Ten new recovery codes when `first`, else none (an account's codes come with its first factor). */
async function codesIfFirst(f: SecondFactors, userId: string, first: boolean): Promise<string[] | null> {
  return first ? f.newRecoveryCodes(userId) : null;
}

/** 409 PasskeyLimit when the account holds `WEBAUTHN_CREDENTIALS_MAX` passkeys already. */
async function belowPasskeyLimit(f: SecondFactors, userId: string): Promise<void> {
  const { passkeys } = await f.summary(userId);
  if (passkeys.length >= WEBAUTHN_CREDENTIALS_MAX)
    throw new AppError(409, 'PasskeyLimit', { max: WEBAUTHN_CREDENTIALS_MAX });
}

/**
 * Refuses removing the account's last factor while one of its organisations requires a second factor (409
 * SecondFactorRequiredByOrganization, naming it): the member would be refused there once the grace is over. Without
 * such an organisation the last factor may go (as on GitHub), and its recovery codes go with it (the core drops them).
 */
async function mayRemove(deps: TwoFactorDeps, userId: string, removing: { passkey: string } | 'totp'): Promise<void> {
  const summary = await deps.secondFactors.summary(userId);
  // Nothing of the account's to remove (an unknown or another account's passkey): the removal answers 404 itself.
  if (removing === 'totp' ? summary.totpSince === null : !summary.passkeys.some((p) => p.id === removing.passkey))
    return;
  const app = removing !== 'totp' && summary.totpSince !== null ? 1 : 0;
  const left = app + summary.passkeys.filter((p) => removing !== 'totp' && p.id !== removing.passkey).length;
  if (left > 0) return;
  const [required] = await requiringOrgs(deps.db, userId);
  if (required) throw new AppError(409, 'SecondFactorRequiredByOrganization', { org: required.org });
}

/** Starts setting up the authenticator app: a new secret (shown once) waits for its first code. */
export function startTotp(deps: TwoFactorDeps, user: SessionUser) {
  return deps.secondFactors.startTotp(factorUser(user));
}

/**
 * Confirms the waiting secret with the app's first code (409 TotpNotStarted when none waits, 400 TotpCodeInvalid when
 * the code is wrong). Setting the app up again replaces the one before. The account's first factor brings its ten
 * recovery codes, answered here once.
 */
export async function confirmTotp(deps: TwoFactorDeps, userId: string, code: string): Promise<FactorAdded> {
  const f = deps.secondFactors;
  const first = !(await f.hasFactor(userId));
  if (!(await f.confirmTotp(userId, code))) {
    const waiting = await deps.db
      .selectFrom('totp_factors')
      .select('user_id')
      .where('user_id', '=', userId)
      .where('pending_enc', 'is not', null)
      .executeTakeFirst();
    throw waiting ? new AppError(400, 'TotpCodeInvalid') : new AppError(409, 'TotpNotStarted');
  }
  const codes = await codesIfFirst(f, userId, first);
  await deps.events.emit({ type: 'second-factor.added', factor: 'totp', name: null, to: { userId } });
  return { state: await twoFactorState(deps, userId), recovery_codes: codes };
}

/** Removes the app (404 TotpNotFound without one); the last factor only when no organisation requires one. */
export async function removeTotp(deps: TwoFactorDeps, userId: string): Promise<TwoFactorState> {
  await mayRemove(deps, userId, 'totp');
  if (!(await deps.secondFactors.removeTotp(userId))) throw new AppError(404, 'TotpNotFound');
  await deps.events.emit({ type: 'second-factor.removed', factor: 'totp', name: null, by: 'member', to: { userId } });
  return twoFactorState(deps, userId);
}

/** Options for the browser to create a passkey with (409 PasskeyLimit at `WEBAUTHN_CREDENTIALS_MAX`). */
export async function passkeyOptions(deps: TwoFactorDeps, user: SessionUser) {
  await belowPasskeyLimit(deps.secondFactors, user.id);
  return deps.secondFactors.registrationOptions(factorUser(user));
}

/**
 * Stores the browser's new passkey (400 PasskeyNotVerified when the core refuses the answer: challenge, origin, rp
 * id, attestation; 409 PasskeyLimit beyond the limit, also when parallel calls raced past the check). The account's
 * first factor brings its recovery codes.
 */
export async function addPasskey(
  deps: TwoFactorDeps,
  userId: string,
  input: { name: string; response: RegistrationResponse },
): Promise<FactorAdded> {
  const f = deps.secondFactors;
  const name = passkeyName(input.name);
  await belowPasskeyLimit(f, userId);
  const first = !(await f.hasFactor(userId));
  const added = await f.register(userId, input.response, name);
  if (!added) throw new AppError(400, 'PasskeyNotVerified');
  if ((await f.summary(userId)).passkeys.length > WEBAUTHN_CREDENTIALS_MAX) {
    await f.removePasskey(userId, added.id);
    throw new AppError(409, 'PasskeyLimit', { max: WEBAUTHN_CREDENTIALS_MAX });
  }
  const codes = await codesIfFirst(f, userId, first);
  await deps.events.emit({ type: 'second-factor.added', factor: 'webauthn', name: added.name, to: { userId } });
  return { state: await twoFactorState(deps, userId), recovery_codes: codes };
}

/** Renames one of the account's passkeys; another account's (or an unknown) id answers 404 PasskeyNotFound. */
export async function renamePasskey(deps: TwoFactorDeps, userId: string, id: string, name: string): Promise<Passkey> {
  const renamed = await deps.secondFactors.renamePasskey(userId, id, passkeyName(name));
  if (!renamed) throw new AppError(404, 'PasskeyNotFound');
  return toPasskey(renamed);
}

/**
 * Removes one of the account's passkeys (another account's id answers 404 PasskeyNotFound, as an unknown one); the
 * last factor only when no organisation requires one.
 */
export async function removePasskey(deps: TwoFactorDeps, userId: string, id: string): Promise<TwoFactorState> {
  await mayRemove(deps, userId, { passkey: id });
  const removed = await deps.secondFactors.removePasskey(userId, id);
  if (!removed) throw new AppError(404, 'PasskeyNotFound');
  await deps.events.emit({
    type: 'second-factor.removed',
    factor: 'webauthn',
    name: removed.name,
    by: 'member',
    to: { userId },
  });
  return twoFactorState(deps, userId);
}

/** Ten new recovery codes, the old ones void; only for an account with a factor (409 RecoveryCodesNoFactor). */
export async function regenerateRecoveryCodes(deps: TwoFactorDeps, userId: string): Promise<{ codes: string[] }> {
  if (!(await deps.secondFactors.hasFactor(userId))) throw new AppError(409, 'RecoveryCodesNoFactor');
  const codes = await deps.secondFactors.newRecoveryCodes(userId);
  await deps.events.emit({ type: 'recovery-codes.generated', count: codes.length, to: { userId } });
  return { codes };
}

/**
 * The admin's removal after identity proofing (the CLI): every factor and recovery code of the account, written to
 * its history as `second-factor.removed` by an admin, factor `all`. What was removed; nothing emitted when it had none.
 */
export async function removeAllFactors(
  deps: { secondFactors: SecondFactors; events: EventBus },
  userId: string,
): Promise<FactorSummary> {
  const removed = await deps.secondFactors.removeAll(userId);
  if (removed.totpSince !== null || removed.passkeys.length || removed.recoveryCodesLeft) {
    await deps.events.emit({ type: 'second-factor.removed', factor: 'all', name: null, by: 'admin', to: { userId } });
  }
  return removed;
}
