import { Secret, TOTP } from 'otpauth';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock';
import type { DB } from '../../db/schema';
import {
  TOTP_CODE_PATTERN,
  TOTP_DIGITS,
  TOTP_DRIFT_STEPS,
  TOTP_PERIOD_SECONDS,
} from '../../../schemas/second-factor-limits';
import { openSecret, sealSecret } from './factor-key';
import type { TotpEnrolment } from './types';

/** What the authenticator-app rules need: the database, the clock, the sealing key and the issuer the app shows. */
export interface TotpDeps {
  db: Kysely<DB>;
  clock: Clock;
  /** AES-256-GCM key the secrets are sealed with (FactorKeys.seal). */
  seal: Buffer;
  /** The name the authenticator app lists the account under (the edition's product name). */
  issuer: string;
}

const CODE = new RegExp(TOTP_CODE_PATTERN);
/** RFC 6238 with the parameters every authenticator app understands (SHA-1, 6 digits, 30 s). */
const params = { algorithm: 'SHA1', digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS } as const;

/** The 30-second step a moment falls in (RFC 6238's T). */
export function totpStep(now: number): number {
  return TOTP.counter({ period: TOTP_PERIOD_SECONDS, timestamp: now });
}

/** The code of a base32 secret at a moment (tests and the soft authenticator compute codes so). */
export function totpCode(secret: string, now: number): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), ...params, timestamp: now });
}

/** The step within ±TOTP_DRIFT_STEPS of now whose code `code` is, or null. */
function matchingStep(secret: string, code: string, now: number): number | null {
  if (!CODE.test(code)) return null;
  const delta = TOTP.validate({
    token: code,
    secret: Secret.fromBase32(secret),
    ...params,
    timestamp: now,
    window: TOTP_DRIFT_STEPS,
  });
  return delta === null ? null : totpStep(now) + delta;
}

/**
 * A new secret (160 random bits, RFC 4226's recommendation) waits, sealed, for its first code; a confirmed app keeps
 * working meanwhile. Answers the secret in base32 and its `otpauth://` URI (shown once).
 */
export async function startTotp(deps: TotpDeps, user: { id: string; username: string }): Promise<TotpEnrolment> {
  const secret = new Secret({ size: 20 });
  const now = deps.clock.now().getTime();
  const pending = sealSecret(deps.seal, user.id, secret.base32);
  await deps.db
    .insertInto('totp_factors')
    .values({
      user_id: user.id,
      secret_enc: null,
      confirmed_at: null,
      last_step: null,
      pending_enc: pending,
      pending_at: now,
      created_at: now,
    })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ pending_enc: pending, pending_at: now }))
    .execute();
  const uri = new TOTP({ issuer: deps.issuer, label: user.username, secret, ...params }).toString();
  return { secret: secret.base32, uri };
}

/**
 * Confirms the waiting secret with a code of it: it becomes the account's app (replacing an older one) and the code's
 * step counts as used. One statement moves it, so of two parallel confirmations one wins.
 */
export async function confirmTotp(deps: TotpDeps, userId: string, code: string): Promise<boolean> {
  const row = await deps.db
    .selectFrom('totp_factors')
    .select(['pending_enc'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row?.pending_enc) return false;
  const secret = openSecret(deps.seal, userId, row.pending_enc);
  if (secret === null) return false;
  const now = deps.clock.now().getTime();
  const step = matchingStep(secret, code, now);
  if (step === null) return false;
  const r = await deps.db
    .updateTable('totp_factors')
    .set({ secret_enc: row.pending_enc, confirmed_at: now, last_step: step, pending_enc: null, pending_at: null })
    .where('user_id', '=', userId)
    .where('pending_enc', '=', row.pending_enc)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Judges a code of the account's confirmed app: right within ±1 step, and its step later than the last one accepted
 * (a code is used once; a code older than an accepted one is refused too). The step is taken with one conditional
 * UPDATE, so two parallel uses of one code give one success, on any number of instances.
 */
export async function verifyTotp(deps: TotpDeps, userId: string, code: string): Promise<boolean> {
  const row = await deps.db
    .selectFrom('totp_factors')
    .select(['secret_enc'])
    .where('user_id', '=', userId)
    .where('confirmed_at', 'is not', null)
    .executeTakeFirst();
  if (!row?.secret_enc) return false;
  const secret = openSecret(deps.seal, userId, row.secret_enc);
  if (secret === null) return false;
  const step = matchingStep(secret, code, deps.clock.now().getTime());
  if (step === null) return false;
  const r = await deps.db
    .updateTable('totp_factors')
    .set({ last_step: step })
    .where('user_id', '=', userId)
    .where('secret_enc', '=', row.secret_enc)
    .where('confirmed_at', 'is not', null)
    .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Removes the account's app (and a secret waiting for its first code); false when it had no confirmed app. */
export async function removeTotp(deps: Pick<TotpDeps, 'db'>, userId: string): Promise<boolean> {
  const row = await deps.db
    .deleteFrom('totp_factors')
    .where('user_id', '=', userId)
    .returning('confirmed_at')
    .executeTakeFirst();
  return row?.confirmed_at != null;
}
