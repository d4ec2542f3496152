import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SoftAuthenticator, type AssertionTamper } from '../../../tests/kit/soft-authenticator';
import { WEBAUTHN_CHALLENGE_SECONDS } from '../../../schemas/second-factor-limits';
import { relyingParty } from './index';
import { factorFixture, type FactorFixture } from './test-db';

// Passkeys and security keys through @simplewebauthn/server, against a software authenticator: every tampered part
// of an assertion is refused (GitLab once shipped a bypass by ignoring a verification result).

let fx: FactorFixture;
let ada: string;
let bob: string;
const rp = relyingParty({ port: 3000 });
const user = (id: string, username: string) => ({ id, username, name: username });

beforeAll(async () => {
  fx = await factorFixture();
  ada = await fx.user('ada');
  bob = await fx.user('bob');
});
afterAll(() => fx.close());

/** A new authenticator with one passkey registered for the account. */
async function enrolled(userId: string, username: string, opts = {}) {
  const auth = new SoftAuthenticator(rp, opts);
  const info = await fx.factors.register(
    userId,
    auth.register(await fx.factors.registrationOptions(user(userId, username))),
    'Laptop',
  );
  expect(info).not.toBeNull();
  return { auth, info: info! };
}

describe('relying party', () => {
  it('comes from PUBLIC_URL, else localhost and the port', () => {
    expect(relyingParty({ port: 3000 })).toEqual({ rpID: 'localhost', origin: 'http://localhost:3000' });
    expect(relyingParty({ port: 3000, publicUrl: 'https://devops.example.com' })).toEqual({
      rpID: 'devops.example.com',
      origin: 'https://devops.example.com',
    });
  });
});

describe('registration', () => {
  it('keeps a verified passkey, discoverable, and makes it a factor', async () => {
    const { info } = await enrolled(ada, 'ada');
    expect(info).toMatchObject({ name: 'Laptop', discoverable: true, lastUsedAt: null });
    expect(await fx.factors.hasFactor(ada)).toBe(true);
    expect(await fx.factors.methodsOf(ada)).toEqual(['webauthn', 'recovery']);
  });

  it('refuses a wrong challenge, origin, rp id or type, and a challenge answered twice', async () => {
    const carol = await fx.user('carol');
    const u = user(carol, 'carol');
    for (const tamper of [
      { challenge: Buffer.from('not issued').toString('base64url') },
      { origin: 'https://evil.example' },
      { rpID: 'evil.example' },
      { type: 'webauthn.get' },
      { userPresent: false },
    ]) {
      const auth = new SoftAuthenticator(rp);
      expect(
        await fx.factors.register(carol, auth.register(await fx.factors.registrationOptions(u), tamper), 'x'),
      ).toBeNull();
    }
    const auth = new SoftAuthenticator(rp);
    const answer = auth.register(await fx.factors.registrationOptions(u));
    expect(await fx.factors.register(carol, answer, 'once')).not.toBeNull();
    expect(await fx.factors.register(carol, answer, 'twice')).toBeNull();
    // Bob cannot register with a challenge issued to Carol.
    const other = new SoftAuthenticator(rp).register(await fx.factors.registrationOptions(u));
    expect(await fx.factors.register(bob, other, 'stolen')).toBeNull();
  });
});

describe('assertion as a second factor', () => {
  it('accepts the account’s own passkey once, and notes when it was used', async () => {
    const dan = await fx.user('dan');
    const { auth, info } = await enrolled(dan, 'dan');
    const options = await fx.factors.assertionOptions(dan);
    expect(options.allowCredentials?.map((c) => c.id)).toEqual([auth.credentials[0]!.id]);
    const answer = auth.assert(options);
    expect(await fx.factors.verify(dan, { method: 'webauthn', response: answer })).toBe(true);
    // The same answer again: its challenge is spent.
    expect(await fx.factors.verify(dan, { method: 'webauthn', response: answer })).toBe(false);
    const [p] = (await fx.factors.summary(dan)).passkeys;
    expect(p).toMatchObject({ id: info.id, lastUsedAt: fx.clock.now().getTime() });
  });

  it('refuses each tampered assertion', async () => {
    const erin = await fx.user('erin');
    const { auth } = await enrolled(erin, 'erin');
    const foreign = await enrolled(await fx.user('frank'), 'frank');
    const gina = await fx.user('gina');
    // One right answer first, so the stored counter is past 0 and a replayed one is a replay.
    expect(
      await fx.factors.verify(erin, {
        method: 'webauthn',
        response: auth.assert(await fx.factors.assertionOptions(erin)),
      }),
    ).toBe(true);
    const accepted = auth.credentials[0]!.counter;
    const tampers: [string, (o: { challenge: string }) => AssertionTamper][] = [
      ['wrong challenge', () => ({ challenge: Buffer.from('nope').toString('base64url') })],
      ['wrong origin', () => ({ origin: 'https://evil.example' })],
      ['wrong rp id', () => ({ rpID: 'evil.example' })],
      ['replayed counter', () => ({ counter: accepted })],
      ['counter gone back', () => ({ counter: 0 })],
      ['id ≠ rawId', () => ({ rawId: foreign.auth.credentials[0]!.id })],
      ['bad signature', () => ({ badSignature: true })],
      ['no user presence', () => ({ userPresent: false })],
      ['registration type', () => ({ type: 'webauthn.create' })],
      ['another user handle', () => ({ userHandle: Buffer.from('someone-else').toString('base64url') })],
    ];
    for (const [why, tamper] of tampers) {
      const options = await fx.factors.assertionOptions(erin);
      const answer = auth.assert(options, tamper(options));
      expect(await fx.factors.verify(erin, { method: 'webauthn', response: answer }), why).toBe(false);
    }
    // Another account's credential, answering a challenge issued to this account.
    const options = await fx.factors.assertionOptions(erin);
    const stolen = foreign.auth.assert(options, { credentialId: foreign.auth.credentials[0]!.id });
    expect(await fx.factors.verify(erin, { method: 'webauthn', response: stolen })).toBe(false);
    // A challenge issued to another account.
    const ginaOptions = await fx.factors.assertionOptions(gina);
    const misdirected = auth.assert(ginaOptions, { credentialId: auth.credentials[0]!.id });
    expect(await fx.factors.verify(erin, { method: 'webauthn', response: misdirected })).toBe(false);
    // After all that, a right one still works (nothing above moved the counter).
    const good = auth.assert(await fx.factors.assertionOptions(erin));
    expect(await fx.factors.verify(erin, { method: 'webauthn', response: good })).toBe(true);
  });

  it('keeps an account’s ten latest challenges, the newest always answerable', async () => {
    const lou = await fx.user('lou');
    const { auth } = await enrolled(lou, 'lou');
    const first = await fx.factors.assertionOptions(lou);
    // A moment apart each, as requests are: the oldest is the one dropped.
    for (let i = 0; i < 12; i++) {
      fx.clock.advance(1);
      await fx.factors.assertionOptions(lou);
    }
    fx.clock.advance(1);
    const latest = await fx.factors.assertionOptions(lou);
    const rows = await fx.database.db
      .selectFrom('webauthn_challenges')
      .select('purpose')
      .where('user_id', '=', lou)
      .execute();
    expect(rows).toHaveLength(10);
    expect(await fx.factors.verify(lou, { method: 'webauthn', response: auth.assert(latest) })).toBe(true);
    expect(await fx.factors.verify(lou, { method: 'webauthn', response: auth.assert(first) })).toBe(false);
  });

  it('refuses an expired challenge', async () => {
    const hal = await fx.user('hal');
    const { auth } = await enrolled(hal, 'hal');
    const options = await fx.factors.assertionOptions(hal);
    fx.clock.advance(WEBAUTHN_CHALLENGE_SECONDS * 1000 + 1);
    expect(await fx.factors.verify(hal, { method: 'webauthn', response: auth.assert(options) })).toBe(false);
  });

  it('allows an authenticator without a counter (0 every time)', async () => {
    const ivy = await fx.user('ivy');
    const { auth } = await enrolled(ivy, 'ivy', { counter: 'zero' });
    for (let i = 0; i < 2; i++) {
      const answer = auth.assert(await fx.factors.assertionOptions(ivy));
      expect(await fx.factors.verify(ivy, { method: 'webauthn', response: answer })).toBe(true);
    }
  });

  it('gives one success to parallel copies of one assertion', async () => {
    const jo = await fx.user('jo');
    const { auth } = await enrolled(jo, 'jo');
    const answer = auth.assert(await fx.factors.assertionOptions(jo));
    const verdicts = await Promise.all(
      Array.from({ length: 8 }, () => fx.factors.verify(jo, { method: 'webauthn', response: answer })),
    );
    expect(verdicts.filter(Boolean)).toHaveLength(1);
  });
});

describe('passkey sign-in (discoverable, no name)', () => {
  it('answers the account whose passkey signed, and nobody for tampered answers', async () => {
    const kim = await fx.user('kim');
    const lee = await fx.user('lee');
    const kimAuth = (await enrolled(kim, 'kim')).auth;
    const leeAuth = (await enrolled(lee, 'lee')).auth;
    const options = await fx.factors.assertionOptions(null);
    expect(options.allowCredentials).toEqual([]);
    expect(options.userVerification).toBe('required');
    expect((await fx.factors.assertionOptions(kim)).userVerification).toBe('preferred');
    expect(await fx.factors.verifyPasswordless(leeAuth.assert(options))).toBe(lee);
    expect(await fx.factors.verifyPasswordless(kimAuth.assert(await fx.factors.assertionOptions(null)))).toBe(kim);
    // A challenge issued for an account (a second factor) does not serve a passkey sign-in.
    expect(await fx.factors.verifyPasswordless(kimAuth.assert(await fx.factors.assertionOptions(kim)))).toBeNull();
    // Without a user handle, or with another account's, or without user verification: refused.
    for (const tamper of [
      { userHandle: null },
      { userHandle: Buffer.from(lee).toString('base64url') },
      { userVerified: false },
      { badSignature: true },
    ] satisfies AssertionTamper[]) {
      expect(
        await fx.factors.verifyPasswordless(kimAuth.assert(await fx.factors.assertionOptions(null), tamper)),
      ).toBeNull();
    }
  });
});

describe('passkeys of an account', () => {
  it('renames and removes only the account’s own, and drops recovery codes with the last factor', async () => {
    const max = await fx.user('max');
    const { info } = await enrolled(max, 'max');
    await fx.factors.newRecoveryCodes(max);
    expect(await fx.factors.renamePasskey(bob, info.id, 'mine now')).toBeNull();
    expect(await fx.factors.removePasskey(bob, info.id)).toBeNull();
    expect(await fx.factors.renamePasskey(max, info.id, 'Phone')).toMatchObject({ id: info.id, name: 'Phone' });
    expect((await fx.factors.summary(max)).recoveryCodesLeft).toBe(10);
    expect(await fx.factors.removePasskey(max, info.id)).toMatchObject({ id: info.id });
    expect(await fx.factors.summary(max)).toEqual({ totpSince: null, passkeys: [], recoveryCodesLeft: 0 });
    expect(await fx.factors.methodsOf(max)).toEqual([]);
  });
});
