import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../context';
import type { AccountEvent } from '../../events';
import { LoginLockout, LOCK_AT_FAILURES } from '../lockout';
import { SessionStore } from '../sessions';
import { AppError } from '../../errors';
import { SoftAuthenticator } from '../../../tests/kit/soft-authenticator';
import { judgeFactor } from './challenge';
import { relyingParty, totpCode } from './index';
import { factorFixture, type FactorFixture } from './test-db';

// Answers to a second-factor challenge count in the sign-in lockout (five wrong lock the account for an hour, parallel
// guesses evaluate at most five), and no session exists for an account with a factor until one was answered.

let fx: FactorFixture;
let ctx: AppContext;
const events: AccountEvent[] = [];
let judged = 0;

beforeAll(async () => {
  fx = await factorFixture();
  const factors = fx.factors;
  ctx = {
    db: fx.database.db,
    clock: fx.clock,
    lockout: new LoginLockout(fx.database.db, fx.clock),
    events: { emit: async (e: AccountEvent) => void events.push(e) },
    // Counts the answers actually judged.
    secondFactors: {
      ...factors,
      verify: (...a: Parameters<typeof factors.verify>) => (judged++, factors.verify(...a)),
    },
  } as unknown as AppContext;
});
afterAll(() => fx.close());

/** An account with a confirmed app; answers its id and secret. */
async function withApp(username: string) {
  const id = await fx.user(username);
  const { secret } = await fx.factors.startTotp({ id, username, name: username });
  fx.clock.advance(-5 * 30_000);
  expect(await fx.factors.confirmTotp(id, totpCode(secret, fx.clock.now().getTime()))).toBe(true);
  fx.clock.advance(5 * 30_000);
  return { id, secret };
}

const wrong = { method: 'totp', code: '000000' } as const;

describe('judgeFactor', () => {
  it('counts wrong answers, locks at the fifth and tells the owner once', async () => {
    const { id, secret } = await withApp('ada');
    events.length = 0;
    const attempt = {
      userId: id,
      username: 'ada',
      lock: 'unmarked',
      purpose: 'sign-in',
      address: '192.0.2.1',
    } as const;
    const verdicts = [];
    for (let i = 0; i < LOCK_AT_FAILURES + 1; i++) verdicts.push(await judgeFactor(ctx, { ...attempt, proof: wrong }));
    expect(verdicts).toEqual(['wrong', 'wrong', 'wrong', 'wrong', 'locked', 'locked']);
    expect(events.filter((e) => e.type === 'account.locked')).toEqual([
      expect.objectContaining({ address: '192.0.2.1', lock: 'unmarked', to: { userId: id } }),
    ]);
    expect(events.filter((e) => e.type === 'sign-in.failed')).toHaveLength(LOCK_AT_FAILURES + 1);
    expect(events.find((e) => e.type === 'sign-in.failed')).toMatchObject({
      method: 'totp',
      reason: 'wrong-second-factor',
    });
    // Locked: even the right code is not judged.
    const right = { method: 'totp', code: totpCode(secret, fx.clock.now().getTime()) } as const;
    expect(await judgeFactor(ctx, { ...attempt, proof: right })).toBe('locked');
  });

  it('evaluates at most five of a burst of parallel guesses', async () => {
    const { id } = await withApp('bob');
    judged = 0;
    const verdicts = await Promise.all(
      Array.from({ length: 30 }, () =>
        judgeFactor(ctx, { userId: id, lockKey: 'bob', lock: 'unmarked', purpose: 'sign-in', proof: wrong }),
      ),
    );
    expect(judged).toBe(LOCK_AT_FAILURES);
    expect(verdicts.filter((v) => v === 'wrong')).toHaveLength(LOCK_AT_FAILURES - 1);
    expect(await ctx.lockout.isLocked('bob')).toBe(true);
  });

  it('clears the count on a right answer, and tells how many recovery codes are left', async () => {
    const id = await fx.user('carol');
    const auth = new SoftAuthenticator(relyingParty({ port: 3000 }));
    await fx.factors.register(
      id,
      auth.register(await fx.factors.registrationOptions({ id, username: 'carol', name: '' })),
      'k',
    );
    const codes = await fx.factors.newRecoveryCodes(id);
    const attempt = { userId: id, username: 'carol', lock: 'marked', purpose: 'recovery' } as const;
    expect(await judgeFactor(ctx, { ...attempt, proof: wrong })).toBe('wrong');
    expect((await ctx.lockout.state('carol', 'marked')).failures).toBe(1);
    events.length = 0;
    expect(await judgeFactor(ctx, { ...attempt, proof: { method: 'recovery', code: codes[3]! } })).toBe('ok');
    expect((await ctx.lockout.state('carol', 'marked')).failures).toBe(0);
    expect(events).toEqual([expect.objectContaining({ type: 'recovery-code.used', left: 9, to: { userId: id } })]);
    // A passkey answers too.
    const response = auth.assert(await fx.factors.assertionOptions(id));
    expect(await judgeFactor(ctx, { ...attempt, proof: { method: 'webauthn', response } })).toBe('ok');
  });

  it('writes a re-authentication’s wrong answer as reauth.failed', async () => {
    const { id } = await withApp('dan');
    events.length = 0;
    await judgeFactor(ctx, {
      userId: id,
      username: 'dan',
      lock: 'unmarked',
      purpose: 'reauth',
      proof: wrong,
      method: 'password',
    });
    expect(events).toEqual([
      expect.objectContaining({ type: 'reauth.failed', method: 'password', reason: 'wrong-second-factor' }),
    ]);
  });
});

describe('SessionStore.create', () => {
  it('refuses an account with a factor without one, and starts one with it', async () => {
    const sessions = new SessionStore(fx.database.db, fx.clock, fx.database.sqlite);
    const plain = await fx.user('erin');
    await expect(sessions.create(plain, { method: 'password' })).resolves.toMatchObject({ id: expect.any(String) });
    const { id } = await withApp('frank');
    const refused = await sessions.create(id, { method: 'password' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ status: 401, code: 'SecondFactorRequired' });
    await expect(sessions.create(id, { method: 'password', secondFactor: 'totp' })).resolves.toMatchObject({
      id: expect.any(String),
    });
    // A waiting app (not confirmed) is no factor yet.
    const gina = await fx.user('gina');
    await fx.factors.startTotp({ id: gina, username: 'gina', name: '' });
    await expect(sessions.create(gina, { method: 'password' })).resolves.toBeDefined();
  });
});

describe('deleting an account', () => {
  it('leaves none of its factor rows', async () => {
    const id = await fx.user('hal');
    const auth = new SoftAuthenticator(relyingParty({ port: 3000 }));
    await fx.factors.register(
      id,
      auth.register(await fx.factors.registrationOptions({ id, username: 'hal', name: '' })),
      'k',
    );
    await fx.factors.startTotp({ id, username: 'hal', name: '' });
    await fx.factors.newRecoveryCodes(id);
    await fx.factors.assertionOptions(id);
    await fx.database.db.deleteFrom('users').where('id', '=', id).execute();
    for (const t of ['totp_factors', 'webauthn_credentials', 'recovery_codes', 'webauthn_challenges'] as const) {
      const rows = await fx.database.db.selectFrom(t).select('user_id').where('user_id', '=', id).execute();
      expect(rows, t).toEqual([]);
    }
  });
});
