import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOTP_PERIOD_SECONDS } from '../../../schemas/second-factor-limits';
import { totpCode } from './index';
import { factorFixture, type FactorFixture } from './test-db';

// The authenticator app (RFC 6238): 30 s steps, ±1 step of drift, each step used once (atomically), the secret
// sealed at rest under the factor key.

let fx: FactorFixture;
const STEP = TOTP_PERIOD_SECONDS * 1000;
const at = (steps: number) => fx.clock.now().getTime() + steps * STEP;

beforeAll(async () => {
  fx = await factorFixture();
});
afterAll(() => fx.close());

/** An account with a confirmed app; answers its id and the secret (as the enrolment showed it). */
async function withApp(username: string) {
  const id = await fx.user(username);
  const { secret, uri } = await fx.factors.startTotp({ id, username, name: username });
  expect(uri).toMatch(/^otpauth:\/\/totp\//);
  expect(uri).toContain(`secret=${secret}`);
  // The first code confirms it, a few steps before the tests' own codes (its step counts as used).
  fx.clock.advance(-5 * STEP);
  expect(await fx.factors.confirmTotp(id, totpCode(secret, fx.clock.now().getTime()))).toBe(true);
  fx.clock.advance(5 * STEP);
  return { id, secret };
}

describe('enrolment', () => {
  it('keeps the secret sealed, never the base32 text, and makes a factor only once confirmed', async () => {
    const id = await fx.user('ada');
    const { secret } = await fx.factors.startTotp({ id, username: 'ada', name: 'Ada' });
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const row = await fx.database.db
      .selectFrom('totp_factors')
      .selectAll()
      .where('user_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.secret_enc).toBeNull();
    expect(row.pending_enc).not.toContain(secret);
    expect(row.pending_enc).not.toContain(secret.toLowerCase());
    expect(Buffer.from(row.pending_enc!.slice(3), 'base64url').toString('latin1')).not.toContain(secret);
    expect(await fx.factors.hasFactor(id)).toBe(false);
    expect(await fx.factors.methodsOf(id)).toEqual([]);
    // A code cannot be answered before the app is confirmed.
    expect(await fx.factors.verify(id, { method: 'totp', code: totpCode(secret, at(0)) })).toBe(false);
    expect(await fx.factors.confirmTotp(id, '000000')).toBe(false);
    expect(await fx.factors.confirmTotp(id, totpCode(secret, at(0)))).toBe(true);
    expect(await fx.factors.hasFactor(id)).toBe(true);
    expect(await fx.factors.methodsOf(id)).toEqual(['totp', 'recovery']);
    expect((await fx.factors.summary(id)).totpSince).toBe(fx.clock.now().getTime());
    // The confirming code's step counts as used.
    expect(await fx.factors.verify(id, { method: 'totp', code: totpCode(secret, at(0)) })).toBe(false);
  });

  it('keeps the confirmed app working while a new one waits, then replaces it', async () => {
    const { id, secret } = await withApp('bob');
    const next = await fx.factors.startTotp({ id, username: 'bob', name: 'Bob' });
    expect(next.secret).not.toBe(secret);
    expect(await fx.factors.verify(id, { method: 'totp', code: totpCode(secret, at(0)) })).toBe(true);
    fx.clock.advance(STEP);
    expect(await fx.factors.confirmTotp(id, totpCode(next.secret, at(0)))).toBe(true);
    fx.clock.advance(STEP);
    expect(await fx.factors.verify(id, { method: 'totp', code: totpCode(secret, at(0)) })).toBe(false);
    expect(await fx.factors.verify(id, { method: 'totp', code: totpCode(next.secret, at(0)) })).toBe(true);
  });
});

describe('codes', () => {
  it('refuses a code replayed in its step, and an older step after a newer one', async () => {
    const { id, secret } = await withApp('carol');
    const code = totpCode(secret, at(0));
    expect(await fx.factors.verify(id, { method: 'totp', code })).toBe(true);
    expect(await fx.factors.verify(id, { method: 'totp', code })).toBe(false);
    fx.clock.advance(STEP / 2);
    expect(await fx.factors.verify(id, { method: 'totp', code })).toBe(false);
    fx.clock.advance(STEP);
    expect(await fx.factors.verify(id, { method: 'totp', code: totpCode(secret, at(0)) })).toBe(true);
  });

  it('accepts one step of drift either side and refuses codes further off', async () => {
    const early = await withApp('dan');
    const late = await withApp('erin');
    expect(await fx.factors.verify(early.id, { method: 'totp', code: totpCode(early.secret, at(-2)) })).toBe(false);
    expect(await fx.factors.verify(early.id, { method: 'totp', code: totpCode(early.secret, at(2)) })).toBe(false);
    expect(await fx.factors.verify(early.id, { method: 'totp', code: totpCode(early.secret, at(-1)) })).toBe(true);
    expect(await fx.factors.verify(late.id, { method: 'totp', code: totpCode(late.secret, at(3)) })).toBe(false);
    expect(await fx.factors.verify(late.id, { method: 'totp', code: totpCode(late.secret, at(1)) })).toBe(true);
    // The late one used the next step: this step's code (older) is refused now.
    expect(await fx.factors.verify(late.id, { method: 'totp', code: totpCode(late.secret, at(0)) })).toBe(false);
  });

  it('gives one success to parallel uses of one code', async () => {
    const { id, secret } = await withApp('frank');
    const code = totpCode(secret, at(0));
    const verdicts = await Promise.all(
      Array.from({ length: 20 }, () => fx.factors.verify(id, { method: 'totp', code })),
    );
    expect(verdicts.filter(Boolean)).toHaveLength(1);
  });

  it('refuses another account’s code and malformed ones', async () => {
    const gina = await withApp('gina');
    const hal = await withApp('hal');
    expect(await fx.factors.verify(hal.id, { method: 'totp', code: totpCode(gina.secret, at(0)) })).toBe(false);
    for (const code of ['', '12345', '1234567', 'abcdef', ' 123456'])
      expect(await fx.factors.verify(hal.id, { method: 'totp', code })).toBe(false);
  });
});

describe('the factor key', () => {
  it('is recorded by its digest on first start, and another key is noticed', async () => {
    expect(await fx.factors.checkKey()).toBe(true);
    expect(await fx.build().checkKey()).toBe(true);
    expect(await fx.build({ secondFactorKey: Buffer.alloc(32, 9) }).checkKey()).toBe(false);
    const row = await fx.database.db
      .selectFrom('service_secrets')
      .select('value')
      .where('name', '=', 'second-factor-key-check')
      .executeTakeFirstOrThrow();
    expect(row.value).toBe(fx.factors.keyCheck);
    expect(row.value).toHaveLength(16);
  });

  it('opens secrets only under the key they were sealed with, and only for their account', async () => {
    const { id, secret } = await withApp('ivy');
    const other = fx.build({ secondFactorKey: Buffer.alloc(32, 7) });
    expect(await other.verify(id, { method: 'totp', code: totpCode(secret, at(0)) })).toBe(false);
    // A sealed secret copied to another account's row does not open there (the account id is sealed in).
    const jo = await fx.user('jo');
    await sql`insert into totp_factors (user_id, secret_enc, confirmed_at, created_at)
      select ${jo}, secret_enc, confirmed_at, created_at from totp_factors where user_id = ${id}`.execute(
      fx.database.db,
    );
    expect(await fx.factors.verify(jo, { method: 'totp', code: totpCode(secret, at(0)) })).toBe(false);
    expect(await fx.factors.verify(id, { method: 'totp', code: totpCode(secret, at(0)) })).toBe(true);
  });
});

describe('removal', () => {
  it('removes the app and says whether there was one', async () => {
    const { id } = await withApp('kim');
    expect(await fx.factors.removeTotp(id)).toBe(true);
    expect(await fx.factors.removeTotp(id)).toBe(false);
    expect(await fx.factors.hasFactor(id)).toBe(false);
  });
});
