import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECOVERY_CODE_COUNT } from '../../../schemas/second-factor-limits';
import { SoftAuthenticator } from '../../../tests/kit/soft-authenticator';
import { normaliseRecoveryCode, relyingParty } from './index';
import { factorFixture, type FactorFixture } from './test-db';

// Recovery codes: ten shown once, kept as keyed hashes, each spent once (atomically), typed any way.

let fx: FactorFixture;

beforeAll(async () => {
  fx = await factorFixture();
});
afterAll(() => fx.close());

/** An account with a factor (a passkey) and fresh recovery codes. */
async function withCodes(username: string) {
  const id = await fx.user(username);
  const auth = new SoftAuthenticator(relyingParty({ port: 3000 }));
  const options = await fx.factors.registrationOptions({ id, username, name: username });
  expect(await fx.factors.register(id, auth.register(options), 'key')).not.toBeNull();
  return { id, codes: await fx.factors.newRecoveryCodes(id) };
}

describe('recovery codes', () => {
  it('are ten distinct xxxx-xxxx-xxxx-xxxx base32 codes, kept only as keyed hashes', async () => {
    const { id, codes } = await withCodes('ada');
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    for (const c of codes) expect(c).toMatch(/^[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}$/);
    const rows = await fx.database.db.selectFrom('recovery_codes').selectAll().where('user_id', '=', id).execute();
    expect(rows).toHaveLength(RECOVERY_CODE_COUNT);
    const stored = JSON.stringify(rows);
    for (const c of codes) {
      expect(stored).not.toContain(c);
      expect(stored).not.toContain(c.replaceAll('-', ''));
    }
    expect((await fx.factors.summary(id)).recoveryCodesLeft).toBe(RECOVERY_CODE_COUNT);
  });

  it('work once each, typed with spaces, dashes or in lower case', async () => {
    const { id, codes } = await withCodes('bob');
    const [a, b] = codes as [string, string];
    expect(await fx.factors.verify(id, { method: 'recovery', code: a })).toBe(true);
    expect(await fx.factors.verify(id, { method: 'recovery', code: a })).toBe(false);
    expect(await fx.factors.verify(id, { method: 'recovery', code: b.toLowerCase().replaceAll('-', ' ') })).toBe(true);
    expect(await fx.factors.verify(id, { method: 'recovery', code: b })).toBe(false);
    expect((await fx.factors.summary(id)).recoveryCodesLeft).toBe(RECOVERY_CODE_COUNT - 2);
  });

  it('give one success to parallel uses of one code', async () => {
    const { id, codes } = await withCodes('carol');
    const verdicts = await Promise.all(
      Array.from({ length: 20 }, () => fx.factors.verify(id, { method: 'recovery', code: codes[0]! })),
    );
    expect(verdicts.filter(Boolean)).toHaveLength(1);
  });

  it('are the account’s own, and stop working when new ones are made', async () => {
    const dan = await withCodes('dan');
    const erin = await withCodes('erin');
    expect(await fx.factors.verify(erin.id, { method: 'recovery', code: dan.codes[0]! })).toBe(false);
    const fresh = await fx.factors.newRecoveryCodes(dan.id);
    expect(await fx.factors.verify(dan.id, { method: 'recovery', code: dan.codes[1]! })).toBe(false);
    expect(await fx.factors.verify(dan.id, { method: 'recovery', code: fresh[0]! })).toBe(true);
  });

  it('prove nothing for an account without a factor', async () => {
    const id = await fx.user('frank');
    const codes = await fx.factors.newRecoveryCodes(id);
    expect(await fx.factors.verify(id, { method: 'recovery', code: codes[0]! })).toBe(false);
  });

  it('are normalised before they are judged', () => {
    expect(normaliseRecoveryCode('abcd-efgh ijkl-mnop')).toBe('ABCDEFGHIJKLMNOP');
    expect(normaliseRecoveryCode('ABCD-EFGH-IJKL-MNO')).toBeNull();
    expect(normaliseRecoveryCode('ABCD-EFGH-IJKL-MNO1')).toBeNull();
  });
});
