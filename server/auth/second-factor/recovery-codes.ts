import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock';
import type { DB } from '../../db/schema';
import { RECOVERY_CODE_CHARS, RECOVERY_CODE_COUNT } from '../../../schemas/second-factor-limits';

/** What the recovery-code rules need: the database, the clock and the hashing key (FactorKeys.recovery). */
export interface RecoveryDeps {
  db: Kysely<DB>;
  clock: Clock;
  key: Buffer;
}

/** RFC 4648 base32: no 0/1/8/9, so nothing is mistaken for O, I or B when typed from paper. */
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** A new code's characters (RECOVERY_CODE_CHARS × 5 bits = 80 random bits), upper case, no dashes. */
function randomCode(): string {
  const bytes = crypto.randomBytes(RECOVERY_CODE_CHARS);
  // 256 is a multiple of 32: `b % 32` is uniform.
  return [...bytes].map((b) => BASE32[b % 32]).join('');
}

/** A code as it is shown: groups of four joined by dashes (`ABCD-EFGH-IJKL-MNOP`). */
export function formatRecoveryCode(code: string): string {
  return code.match(/.{1,4}/g)!.join('-');
}

/** A code as it was typed, normalised: dashes and spaces dropped, upper case; null when it cannot be one. */
export function normaliseRecoveryCode(input: string): string | null {
  const s = input.replace(/[\s-]/g, '').toUpperCase();
  return s.length === RECOVERY_CODE_CHARS && /^[A-Z2-7]+$/.test(s) ? s : null;
}

/** The keyed hash a code is kept as, bound to its account. */
function codeHash(key: Buffer, userId: string, code: string): string {
  return crypto.createHmac('sha256', key).update(`${userId}\n${code}`).digest('base64url');
}

/**
 * Makes RECOVERY_CODE_COUNT new codes in one transaction (the old ones, used or not, stop working); only their keyed
 * hashes are kept. Answers them formatted, once.
 */
export async function newRecoveryCodes(deps: RecoveryDeps, userId: string): Promise<string[]> {
  const codes = new Set<string>();
  while (codes.size < RECOVERY_CODE_COUNT) codes.add(randomCode());
  const now = deps.clock.now().getTime();
  await deps.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
    await trx
      .insertInto('recovery_codes')
      .values(
        [...codes].map((c) => ({
          user_id: userId,
          code_hash: codeHash(deps.key, userId, c),
          used_at: null,
          created_at: now,
        })),
      )
      .execute();
  });
  return [...codes].map(formatRecoveryCode);
}

/**
 * Spends one unused code of the account: one conditional UPDATE, so a code works once however many requests race
 * with it. False when it is not one of the account's unused codes.
 */
export async function spendRecoveryCode(deps: RecoveryDeps, userId: string, input: string): Promise<boolean> {
  const code = normaliseRecoveryCode(input);
  if (!code) return false;
  const r = await deps.db
    .updateTable('recovery_codes')
    .set({ used_at: deps.clock.now().getTime() })
    .where('user_id', '=', userId)
    .where('code_hash', '=', codeHash(deps.key, userId, code))
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** The account's unused codes. */
export async function recoveryCodesLeft(deps: Pick<RecoveryDeps, 'db'>, userId: string): Promise<number> {
  const row = await deps.db
    .selectFrom('recovery_codes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Removes every code of the account (its last factor went, or an administrator removed them all); how many. */
export async function removeRecoveryCodes(deps: Pick<RecoveryDeps, 'db'>, userId: string): Promise<number> {
  const r = await deps.db.deleteFrom('recovery_codes').where('user_id', '=', userId).executeTakeFirst();
  return Number(r.numDeletedRows);
}
