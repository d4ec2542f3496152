import type { AppContext } from '../../context';
import type { FactorProof } from '../../../schemas/second-factor';
import { LOCK_AT_FAILURES, LOCK_DURATION_MS, type Lock } from '../lockout';
import { recoveryCodesLeft } from './recovery-codes';

/** What an answer to a second-factor challenge is for: it decides which history entry a wrong one writes. */
export type FactorPurpose = 'sign-in' | 'recovery' | 'reauth';

/** One answer to judge, for one account, in the lock its browser counts in. */
export interface FactorAttempt {
  userId: string;
  /**
   * The lockout's key the sign-in counted its password under (the typed username, or a directory's login name):
   * wrong answers count with wrong passwords, five in all lock for an hour. Give this or `username`.
   */
  lockKey?: string;
  /** The account's username, the key when `lockKey` is absent (a re-authentication, a password recovery). */
  username?: string;
  /** The way in the history names (`password`, `ldap`, a provider…); default: the answer's method. */
  method?: string;
  proof: FactorProof;
  /** The lock the browser counts in (`marked` for a browser the account signed in with, see server/auth/lockout.ts). */
  lock: Lock;
  purpose: FactorPurpose;
  /** The client address, named by the lock message when this answer locks the account. */
  address?: string;
}

/** The verdict: right (the count cleared), wrong (counted), or locked (no answer judged, or this one locked). */
export type FactorVerdict = 'ok' | 'wrong' | 'locked';

/**
 * Judges a second-factor answer under the sign-in lockout: the answer takes a slot of the account's count first
 * (`ctx.lockout.reserve`, one conditional statement), so a burst of parallel guesses evaluates at most 5 whatever
 * the instances. A wrong answer keeps its slot and writes `sign-in.failed` (`reauth.failed` for a re-authentication)
 * with reason `wrong-second-factor`; the one taking the 5th slot locks the account and tells its owner once
 * (`account.locked`). A right one clears the count; a spent recovery code tells how many are left
 * (`recovery-code.used`). A failure to judge (database) gives the slot back and throws.
 */
export async function judgeFactor(ctx: AppContext, attempt: FactorAttempt): Promise<FactorVerdict> {
  const { userId, proof, lock, purpose } = attempt;
  const key = attempt.lockKey ?? attempt.username;
  if (!key) throw new Error('judgeFactor needs the lockout key (lockKey or username)');
  const method = attempt.method ?? proof.method;
  const failed = async (reason: 'wrong-second-factor' | 'locked') =>
    ctx.events.emit(
      purpose === 'reauth'
        ? { type: 'reauth.failed', method, reason, to: { userId } }
        : { type: 'sign-in.failed', method, reason, to: { userId } },
    );
  const slot = await ctx.lockout.reserve(key, true, lock);
  if (slot.kind !== 'granted') {
    await failed('locked');
    return 'locked';
  }
  let right: boolean;
  try {
    right = await ctx.secondFactors.verify(userId, proof);
  } catch (e) {
    await ctx.lockout.release(key, slot.slot, lock);
    throw e;
  }
  if (!right) {
    await failed('wrong-second-factor');
    if (slot.slot < LOCK_AT_FAILURES) return 'wrong';
    // Only the answer holding the locking slot gets here, so the owner hears of each lock once.
    const until = ctx.clock.now().getTime() + LOCK_DURATION_MS;
    await ctx.events.emit({ type: 'account.locked', until, address: attempt.address ?? '', lock, to: { userId } });
    return 'locked';
  }
  await ctx.lockout.succeeded(key, lock);
  // The answer's kind, not the history's method (which may name the way in): a spent code is told whatever way it came.
  if (proof.method === 'recovery') {
    const left = await recoveryCodesLeft(ctx, userId);
    await ctx.events.emit({ type: 'recovery-code.used', left, to: { userId } });
  }
  return 'ok';
}
