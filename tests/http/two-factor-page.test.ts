import crypto from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminOn, Client, INBOX, useTestServer, type TestServer } from '../kit/server';
import { startSmtpSink, type SinkMail, type SmtpSink } from '../kit/smtp';
import { expectNoSecrets } from '../kit/secrets';
import { relyingParty, totpCode } from '../../server/auth/second-factor/index';
import { SoftAuthenticator } from '../kit/soft-authenticator';
import { TWO_FACTOR_STARTS_PER_MINUTE } from '../../plugins/security/server/two-factor-routes';
import { REAUTH_PATHS } from '../../schemas/reauth';
import { ManualClock } from '../../server/clock';
import {
  SECURITY_PATHS,
  WEBAUTHN_CREDENTIALS_MAX,
  type FactorAdded,
  type HistoryEntry,
  type TwoFactorState,
} from '../../plugins/security/contract';

// The security page's second factors (issue 41, items 1, 6 and 7): the authenticator app set up with a QR code and a
// first code, passkeys named and removed, recovery codes shown once and made again; every change behind a fresh
// proof, each written to the history, the inbox and the security mail. Runs on SQLite here and on PostgreSQL under
// `npm run test:pg`.

const PASSWORD = 'Secret#123';
const MIN = 60 * 1000;
const P = SECURITY_PATHS;
const passkeyPath = (id: string) => P.passkey.replace(':id', id);
/** A registration answer of the right shape that no authenticator made. */
const FAKE_REGISTRATION = {
  id: 'AAAAAAAA',
  rawId: 'AAAAAAAA',
  response: { clientDataJSON: 'eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIn0', attestationObject: 'o2NmbXRkbm9uZQ' },
  clientExtensionResults: {},
  type: 'public-key',
};

/** Every change of the page: method, path and a valid body (so only the proof can refuse it). */
const CHANGES = (passkeyId: string): Array<[string, string, unknown?]> => [
  ['POST', P.totp],
  ['POST', P.totpConfirm, { code: '123456' }],
  ['DELETE', P.totp],
  ['POST', P.passkeyOptions],
  ['POST', P.passkeys, { name: 'laptop', response: FAKE_REGISTRATION }],
  ['PATCH', passkeyPath(passkeyId), { name: 'renamed' }],
  ['DELETE', passkeyPath(passkeyId)],
  ['POST', P.recoveryCodes],
];

/** A passkey row put straight into the table (the real registration is the soft authenticator's test). */
async function insertPasskey(s: TestServer, userId: string, name: string): Promise<string> {
  const id = crypto.randomBytes(16).toString('hex');
  await s.ctx.db
    .insertInto('webauthn_credentials')
    .values({
      id,
      user_id: userId,
      credential_id: crypto.randomBytes(16).toString('base64url'),
      public_key: crypto.randomBytes(32).toString('base64url'),
      counter: 0,
      transports: null,
      discoverable: 1,
      name,
      created_at: s.clock.now().getTime(),
      last_used_at: null,
    })
    .execute();
  return id;
}

describe('the security page’s second factors', () => {
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(() => sink.close());
  const s = useTestServer(() => ({
    // The admin CLI reads the system clock: the service's starts there, so the sessions it ends are live to both.
    clock: new ManualClock(Date.now()),
    env: { SMTP_URL: sink.url },
    seed: {
      orgs: { Acme: ['codeup'] },
      users: {
        alice: { password: PASSWORD, email: 'alice@example.com' },
        bob: { password: PASSWORD },
        dora: { password: PASSWORD, email: 'dora@example.com', org: 'Acme' },
        gina: { password: PASSWORD, email: 'gina@example.com' },
        hugo: { password: PASSWORD },
        ivy: { password: PASSWORD, email: 'ivy@example.com' },
      },
      signIn: ['alice', 'bob', 'dora', 'gina', 'hugo', 'ivy'],
    },
  }));
  /** Secrets the service handed out here: none may reach a log line. */
  const secrets: string[] = [PASSWORD];

  const state = async (c: Client): Promise<TwoFactorState> => {
    const a = await c.req('GET', P.twoFactor);
    expect(a.status, a.text).toBe(200);
    return a.json;
  };
  /** Proves again (the session's proof aged out); the proof rotates the session and keeps its CSRF token. */
  const prove = async (c: Client) => {
    const a = await c.req('POST', REAUTH_PATHS.my, { body: { password: PASSWORD } });
    expect(a.status, a.text).toBe(200);
    c.csrf = a.json.csrf_token;
  };
  const code = (secret: string) => totpCode(secret, s.clock.now().getTime());
  /** Sets up the app for `c`: the set-up's secret and the confirmation's answer. */
  const setUpApp = async (c: Client): Promise<{ secret: string; added: FactorAdded }> => {
    const start = await c.req('POST', P.totp);
    expect(start.status, start.text).toBe(200);
    const secret: string = start.json.secret;
    secrets.push(secret);
    const confirm = await c.req('POST', P.totpConfirm, { body: { code: code(secret) } });
    expect(confirm.status, confirm.text).toBe(200);
    secrets.push(...(confirm.json.recovery_codes ?? []));
    return { secret, added: confirm.json };
  };
  const noLink = (m: SinkMail) => {
    expect(m.links, m.text).toEqual([]);
    expect(m.text).not.toMatch(/https?:|www\.|\/users\//);
  };
  const history = async (c: Client): Promise<HistoryEntry[]> => {
    const a = await c.req('GET', `${P.history}?group=second-factor&limit=100`);
    expect(a.status, a.text).toBe(200);
    return a.json.entries;
  };
  const inboxTitles = async (c: Client): Promise<string[]> => {
    const a = await c.req('POST', `${INBOX}:list`, {
      body: { page_size: 100 },
      headers: { 'accept-language': 'en-US' },
    });
    expect(a.status, a.text).toBe(200);
    return (a.json.messages as { title: string }[]).map((m) => m.title);
  };
  async function mailsTo(to: string, since: number, count = 1): Promise<SinkMail[]> {
    for (let i = 0; i < 100; i++) {
      const found = sink.mails.slice(since).filter((m) => m.to.includes(to));
      if (found.length >= count) return found;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`fewer than ${count} mail(s) to ${to}`);
  }

  it('refuses every change without a fresh proof (403 ReauthRequired, nothing changed) and reads the state without one', async () => {
    const bob = s.clients.bob;
    const passkey = await insertPasskey(s, s.users.bob.id, 'bob key');
    s.clock.advance(11 * MIN);
    const before = await state(bob);
    for (const [method, path, body] of CHANGES(passkey)) {
      const a = await bob.req(method, path, { body });
      expect([method, path, a.status, a.json?.code]).toEqual([method, path, 403, 'ReauthRequired']);
    }
    expect(await state(bob)).toEqual(before);
    expect(before.passkeys.map((p) => p.name)).toEqual(['bob key']);
    await prove(bob);
    const renamed = await bob.req('PATCH', passkeyPath(passkey), { body: { name: '  Work key  ' } });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.json).toMatchObject({ id: passkey, name: 'Work key', discoverable: true, last_used_at: null });
    const started = await bob.req('POST', P.totp);
    expect(started.status, started.text).toBe(200);
    secrets.push(started.json.secret);
  });

  it('sets up the app: a secret, its URI and QR code once; a wrong code refused; the first factor brings 10 recovery codes', async () => {
    const alice = s.clients.alice;
    await prove(alice);
    expect(await state(alice)).toEqual({ totp: null, passkeys: [], recovery_codes_left: 0, required_by: null });
    const start = await alice.req('POST', P.totp);
    expect(start.status, start.text).toBe(200);
    expect(start.headers.get('cache-control')).toContain('no-store');
    const { secret, uri, qr_svg } = start.json as { secret: string; uri: string; qr_svg: string };
    secrets.push(secret);
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    const parsed = new URL(uri);
    expect([parsed.protocol, parsed.host, parsed.searchParams.get('secret')]).toEqual(['otpauth:', 'totp', secret]);
    expect(decodeURIComponent(parsed.pathname)).toContain('alice');
    expect(qr_svg).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(qr_svg).not.toMatch(/<script|on\w+=/i);
    // Waiting for its first code: no factor yet, and the state never carries the secret.
    const waiting = await alice.req('GET', P.twoFactor);
    expect(waiting.json.totp).toBeNull();
    expect(waiting.text).not.toContain(secret);

    const right = code(secret);
    const wrong = right === '000000' ? '111111' : '000000';
    const refused = await alice.req('POST', P.totpConfirm, { body: { code: wrong } });
    expect([refused.status, refused.json.code]).toEqual([400, 'TotpCodeInvalid']);
    expect(refused.json.message).toContain('验证码不正确');
    expect((await alice.req('POST', P.totpConfirm, { body: { code: '12345' } })).status).toBe(400);

    const confirmed = await alice.req('POST', P.totpConfirm, { body: { code: right } });
    expect(confirmed.status, confirmed.text).toBe(200);
    const added = confirmed.json as FactorAdded;
    secrets.push(...added.recovery_codes!);
    expect(added.recovery_codes).toHaveLength(10);
    expect(new Set(added.recovery_codes).size).toBe(10);
    expect(added.state.totp?.since).toBe(s.clock.now().toISOString());
    expect(added.state.recovery_codes_left).toBe(10);
    expect(confirmed.text).not.toContain(secret);
    // Shown once: the state says how many are left, never which.
    const after = await alice.req('GET', P.twoFactor);
    expect(after.json).toEqual(added.state);
    for (const c of [secret, ...added.recovery_codes!]) expect(after.text).not.toContain(c);
    // Nothing waits any more; the code of the confirmation is spent for the sign-in too.
    const again = await alice.req('POST', P.totpConfirm, { body: { code: right } });
    expect([again.status, again.json.code]).toEqual([409, 'TotpNotStarted']);
    expect(await s.ctx.secondFactors.verify(s.users.alice.id, { method: 'totp', code: right })).toBe(false);
    // One recovery code works once.
    const [first] = added.recovery_codes!;
    expect(await s.ctx.secondFactors.verify(s.users.alice.id, { method: 'recovery', code: first })).toBe(true);
    expect(await s.ctx.secondFactors.verify(s.users.alice.id, { method: 'recovery', code: first })).toBe(false);
    expect((await state(alice)).recovery_codes_left).toBe(9);
  });

  it('makes new recovery codes only with a factor: the old ones stop working', async () => {
    const alice = s.clients.alice;
    await prove(alice);
    const before = await s.ctx.secondFactors.newRecoveryCodes(s.users.alice.id);
    secrets.push(...before);
    const a = await alice.req('POST', P.recoveryCodes);
    expect(a.status, a.text).toBe(200);
    const codes: string[] = a.json.codes;
    secrets.push(...codes);
    expect(codes).toHaveLength(10);
    expect(codes.filter((c) => before.includes(c))).toEqual([]);
    expect(await s.ctx.secondFactors.verify(s.users.alice.id, { method: 'recovery', code: before[0] })).toBe(false);
    expect(await s.ctx.secondFactors.verify(s.users.alice.id, { method: 'recovery', code: codes[0] })).toBe(true);
    expect((await state(alice)).recovery_codes_left).toBe(9);

    const hugo = s.clients.hugo;
    await prove(hugo);
    const none = await hugo.req('POST', P.recoveryCodes);
    expect([none.status, none.json.code]).toEqual([409, 'RecoveryCodesNoFactor']);
    expect((await state(hugo)).recovery_codes_left).toBe(0);
  });

  it('sets the app up again: the new secret replaces the old, and brings no new recovery codes', async () => {
    const gina = s.clients.gina;
    await prove(gina);
    const first = await setUpApp(gina);
    expect(first.added.recovery_codes).toHaveLength(10);
    s.clock.advance(2 * MIN);
    const second = await setUpApp(gina);
    expect(second.added.recovery_codes).toBeNull();
    expect(second.added.state.recovery_codes_left).toBe(10);
    s.clock.advance(2 * MIN);
    expect(await s.ctx.secondFactors.verify(s.users.gina.id, { method: 'totp', code: code(first.secret) })).toBe(false);
    expect(await s.ctx.secondFactors.verify(s.users.gina.id, { method: 'totp', code: code(second.secret) })).toBe(true);
  });

  it('removes the app: the last factor takes the recovery codes with it; a second removal is 404', async () => {
    const gina = s.clients.gina;
    await prove(gina);
    const gone = await gina.req('DELETE', P.totp);
    expect(gone.status, gone.text).toBe(200);
    expect(gone.json).toEqual({ totp: null, passkeys: [], recovery_codes_left: 0, required_by: null });
    const again = await gina.req('DELETE', P.totp);
    expect([again.status, again.json.code]).toEqual([404, 'TotpNotFound']);
  });

  it('writes each change to the history, the inbox and the security mail (no link)', async () => {
    const hugo = s.clients.hugo;
    await prove(hugo);
    await s.ctx.db
      .updateTable('users')
      .set({ email: 'hugo@example.com', email_verified: 1, language: 'en_US' })
      .where('id', '=', s.users.hugo.id)
      .execute();
    let since = sink.mails.length;
    await setUpApp(hugo);
    const [added] = await mailsTo('hugo@example.com', since);
    expect(added.subject).toBe('A two-factor method was added to your account');
    expect(added.text).toContain('The authenticator app was added');
    expect(added.links).toEqual([]);

    since = sink.mails.length;
    s.clock.advance(1000);
    expect((await hugo.req('POST', P.recoveryCodes)).status).toBe(200);
    const [codes] = await mailsTo('hugo@example.com', since);
    expect(codes.subject).toBe('New recovery codes were made for your account');

    const key = await insertPasskey(s, s.users.hugo.id, 'YubiKey');
    since = sink.mails.length;
    s.clock.advance(1000);
    expect((await hugo.req('DELETE', passkeyPath(key))).status).toBe(200);
    const [removedKey] = await mailsTo('hugo@example.com', since);
    expect(removedKey.text).toContain('The passkey "YubiKey" was removed from your account');
    since = sink.mails.length;
    s.clock.advance(1000);
    expect((await hugo.req('DELETE', P.totp)).status).toBe(200);
    const [removedApp] = await mailsTo('hugo@example.com', since);
    expect(removedApp.subject).toBe('A two-factor method was removed from your account');
    for (const m of [added, codes, removedKey, removedApp]) noLink(m);

    // A recovery code used at a sign-in (the core's judge emits it): mailed with how many are left, a warning at two.
    since = sink.mails.length;
    s.clock.advance(1000);
    await s.ctx.events.emit({ type: 'recovery-code.used', left: 2, to: { userId: s.users.hugo.id } });
    const [used] = await mailsTo('hugo@example.com', since);
    expect(used.subject).toBe('A recovery code was used to sign in');
    expect(used.text).toContain('2 unused code(s) left. Make new ones soon');
    noLink(used);

    const entries = (await history(hugo)).slice(1);
    expect(entries.map((e) => [e.kind, e.detail])).toEqual([
      ['second-factor.removed', { factor: 'totp', by: 'member' }],
      ['second-factor.removed', { factor: 'webauthn', name: 'YubiKey', by: 'member' }],
      ['recovery-codes.generated', { count: 10 }],
      ['second-factor.added', { factor: 'totp' }],
    ]);
    expect(entries[0].address).toBeTruthy();
    const csv = await hugo.req('GET', `${P.historyExport}?group=second-factor`, {
      headers: { 'accept-language': 'en-US' },
    });
    expect(csv.status).toBe(200);
    expect(csv.text).toContain('"Two-factor method removed","Authenticator app; by you",""');
    expect(csv.text).toContain('"Two-factor method removed","Passkey; by you","YubiKey"');
    expect(csv.text).toContain('"Recovery codes generated","10 codes"');
    const zh = await hugo.req('GET', `${P.historyExport}?group=second-factor`, {
      headers: { 'accept-language': 'zh-CN' },
    });
    expect(zh.text).toContain('"已添加两步验证方式","身份验证器应用"');

    expect((await inboxTitles(hugo)).slice(0, 5)).toEqual([
      'Recovery code used',
      'Two-factor method removed',
      'Two-factor method removed',
      'New recovery codes',
      'Two-factor method added',
    ]);
  });

  it('adds a passkey the authenticator made: the first brings recovery codes; a tampered or replayed answer is refused', async () => {
    const ivy = s.clients.ivy;
    await prove(ivy);
    const rp = relyingParty(s.ctx.config);
    const phone = new SoftAuthenticator(rp);
    const options = await ivy.req('POST', P.passkeyOptions);
    expect(options.status, options.text).toBe(200);
    expect([options.json.rp.id, options.json.user.name, options.json.excludeCredentials]).toEqual([rp.rpID, 'ivy', []]);
    // Made for another page's origin, or signed over another challenge: refused, nothing stored.
    for (const tamper of [
      { origin: 'https://evil.example' },
      { challenge: 'AAAAAAAAAAAAAAAAAAAAAA' },
      { rpID: 'evil.example' },
    ]) {
      const fresh = await ivy.req('POST', P.passkeyOptions);
      const bad = await ivy.req('POST', P.passkeys, {
        body: { name: 'phone', response: phone.register(fresh.json, tamper) },
      });
      expect([JSON.stringify(tamper), bad.status, bad.json.code]).toEqual([
        JSON.stringify(tamper),
        400,
        'PasskeyNotVerified',
      ]);
    }
    expect((await state(ivy)).passkeys).toEqual([]);

    const fresh = await ivy.req('POST', P.passkeyOptions);
    const response = phone.register(fresh.json);
    const added = await ivy.req('POST', P.passkeys, { body: { name: ' Ivy’s phone ', response } });
    expect(added.status, added.text).toBe(200);
    const body = added.json as FactorAdded;
    secrets.push(...body.recovery_codes!);
    expect(body.recovery_codes).toHaveLength(10);
    expect(body.state.passkeys).toEqual([
      {
        id: expect.any(String),
        name: 'Ivy’s phone',
        created_at: expect.any(String),
        last_used_at: null,
        discoverable: true,
      },
    ]);
    expect(body.state.recovery_codes_left).toBe(10);
    // Its challenge was single use: the same answer again adds nothing.
    const replay = await ivy.req('POST', P.passkeys, { body: { name: 'again', response } });
    expect([replay.status, replay.json.code]).toEqual([400, 'PasskeyNotVerified']);
    // It signs in as a second factor.
    const assertion = await s.ctx.secondFactors.assertionOptions(s.users.ivy.id);
    expect(
      await s.ctx.secondFactors.verify(s.users.ivy.id, { method: 'webauthn', response: phone.assert(assertion) }),
    ).toBe(true);

    // A second passkey (a security key): no new codes; the first one is excluded from its options.
    const key = new SoftAuthenticator(rp, { discoverable: false });
    const next = await ivy.req('POST', P.passkeyOptions);
    expect(next.json.excludeCredentials.map((c: { id: string }) => c.id)).toEqual([response.id]);
    const second = await ivy.req('POST', P.passkeys, { body: { name: 'YubiKey', response: key.register(next.json) } });
    expect(second.status, second.text).toBe(200);
    expect(second.json.recovery_codes).toBeNull();
    expect(second.json.state.recovery_codes_left).toBe(10);
    const first = (second.json.state.passkeys as TwoFactorState['passkeys']).find((p) => p.name === 'Ivy’s phone')!;
    expect((await ivy.req('PATCH', passkeyPath(first.id), { body: { name: 'Old phone' } })).json.name).toBe(
      'Old phone',
    );
    const removed = await ivy.req('DELETE', passkeyPath(first.id));
    expect(removed.status, removed.text).toBe(200);
    expect((removed.json as TwoFactorState).passkeys.map((p) => p.name)).toEqual(['YubiKey']);
    const entries = await history(ivy);
    expect(entries.map((e) => [e.kind, e.detail])).toEqual([
      ['second-factor.removed', { factor: 'webauthn', name: 'Old phone', by: 'member' }],
      ['second-factor.added', { factor: 'webauthn', name: 'YubiKey' }],
      ['second-factor.added', { factor: 'webauthn', name: 'Ivy’s phone' }],
    ]);
  });

  it('answers 400 to 200 well-shaped but broken passkey answers (random fields, flipped bytes of a real one), never a 5xx', async () => {
    const hugo = s.clients.hugo;
    await prove(hugo);
    const phone = new SoftAuthenticator(relyingParty(s.ctx.config));
    const options = await hugo.req('POST', P.passkeyOptions);
    const real = phone.register(options.json);
    const b64 = fc.uint8Array({ minLength: 1, maxLength: 300 }).map((b) => Buffer.from(b).toString('base64url'));
    /** The real answer with one byte of one field changed. */
    const flipped = fc
      .record({
        field: fc.constantFrom('clientDataJSON', 'attestationObject') as fc.Arbitrary<
          'clientDataJSON' | 'attestationObject'
        >,
        at: fc.nat(),
        xor: fc.integer({ min: 1, max: 255 }),
      })
      .map(({ field, at, xor }) => {
        const bytes = Buffer.from(real.response[field], 'base64url');
        bytes[at % bytes.length] ^= xor;
        return { ...real, response: { ...real.response, [field]: bytes.toString('base64url') } };
      });
    const random = fc.record({ id: b64, clientDataJSON: b64, attestationObject: b64 }).map((r) => ({
      ...FAKE_REGISTRATION,
      id: r.id,
      rawId: r.id,
      response: { clientDataJSON: r.clientDataJSON, attestationObject: r.attestationObject },
    }));
    const statuses = new Set<string>();
    await fc.assert(
      fc.asyncProperty(fc.oneof(flipped, random), async (response) => {
        const a = await hugo.req('POST', P.passkeys, { body: { name: 'fuzz', response } });
        statuses.add(`${a.status} ${a.json?.code}`);
        expect(a.status, a.text).toBeLessThan(500);
        expect(a.status, a.text).not.toBe(200);
      }),
      { numRuns: 200, seed: 41 },
    );
    expect([...statuses]).toEqual(['400 PasskeyNotVerified']);
    expect((await state(hugo)).passkeys).toEqual([]);
  });

  it('limits passkeys to WEBAUTHN_CREDENTIALS_MAX, refuses an answer that does not verify, and names nobody else’s', async () => {
    const bob = s.clients.bob;
    await prove(bob);
    const options = await bob.req('POST', P.passkeyOptions);
    expect(options.status, options.text).toBe(200);
    expect(options.json.challenge).toMatch(/^[A-Za-z0-9_-]{16,}$/);
    expect(options.json.user.name).toBe('bob');
    expect(options.json.excludeCredentials).toHaveLength(1);
    const refused = await bob.req('POST', P.passkeys, { body: { name: 'fake', response: FAKE_REGISTRATION } });
    expect([refused.status, refused.json.code]).toEqual([400, 'PasskeyNotVerified']);
    expect(refused.json.message).toMatch(/通行密钥/);
    const blank = await bob.req('POST', P.passkeys, { body: { name: '  ', response: FAKE_REGISTRATION } });
    expect(blank.status).toBe(400);
    const sneaky = await bob.req('POST', P.passkeys, { body: { name: 'a\u202Eb', response: FAKE_REGISTRATION } });
    expect([sneaky.status, sneaky.json.code]).toEqual([400, 'TextDirectionControls']);

    // Alice's passkey is out of bob's reach: an unknown one to him.
    const alices = await insertPasskey(s, s.users.alice.id, 'alice phone');
    for (const [method, body] of [
      ['PATCH', { name: 'mine now' }],
      ['DELETE', undefined],
    ] as const) {
      const a = await bob.req(method, passkeyPath(alices), { body });
      expect([method, a.status, a.json.code]).toEqual([method, 404, 'PasskeyNotFound']);
    }
    expect((await state(s.clients.alice)).passkeys.map((p) => p.name)).toEqual(['alice phone']);

    while ((await state(bob)).passkeys.length < WEBAUTHN_CREDENTIALS_MAX)
      await insertPasskey(s, s.users.bob.id, 'spare');
    const full = await bob.req('POST', P.passkeyOptions);
    expect([full.status, full.json.code]).toEqual([409, 'PasskeyLimit']);
    expect(full.json.message).toContain(String(WEBAUTHN_CREDENTIALS_MAX));
    const fullAdd = await bob.req('POST', P.passkeys, { body: { name: 'one more', response: FAKE_REGISTRATION } });
    expect([fullAdd.status, fullAdd.json.code]).toEqual([409, 'PasskeyLimit']);
  });

  it('keeps the last factor while an organisation requires one, and says until when in the state', async () => {
    const dora = s.clients.dora;
    await prove(dora);
    const requiredAt = s.clock.now().getTime();
    await s.ctx.db
      .updateTable('organizations')
      .set({ second_factor_required_at: requiredAt, second_factor_grace_days: 7 })
      .where('id', '=', s.orgs.Acme)
      .execute();
    const deadline = new Date(requiredAt + 7 * 24 * 60 * MIN).toISOString();
    expect((await state(dora)).required_by).toEqual({ org: 'Acme', deadline });
    await setUpApp(dora);
    const key = await insertPasskey(s, s.users.dora.id, 'dora key');
    // Two factors: either may go; the last may not.
    expect((await dora.req('DELETE', passkeyPath(key))).status).toBe(200);
    // Another account's (or an unknown) passkey is still only unknown to her, requirement or not.
    const alices = await insertPasskey(s, s.users.alice.id, 'not dora’s');
    const foreign = await dora.req('DELETE', passkeyPath(alices));
    expect([foreign.status, foreign.json.code]).toEqual([404, 'PasskeyNotFound']);
    const last = await dora.req('DELETE', P.totp);
    expect([last.status, last.json.code]).toEqual([409, 'SecondFactorRequiredByOrganization']);
    expect(last.json.message).toContain('企业 Acme');
    const en = await dora.req('DELETE', P.totp, { headers: { 'accept-language': 'en-US' } });
    expect(en.json.message).toContain('The organization Acme requires a second factor');
    const after = await state(dora);
    expect(after.totp).not.toBeNull();
    expect(after.required_by).toEqual({ org: 'Acme', deadline });
  });

  it('admin CLI: lists a member’s factors without a secret; removes them all only with identity proofing', async () => {
    const dora = s.clients.dora;
    const listed = await adminOn(s, 'factors', '--username', 'dora');
    expect(listed.code, listed.err).toBe(0);
    expect(listed.out).toContain('dora: second factor on');
    expect(listed.out).toMatch(/authenticator app\tset up \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    expect(listed.out).toContain('recovery codes left\t10');
    expect(listed.out).toContain('required by\tAcme');
    const json = await adminOn(s, 'factors', '--username', 'DORA', '--json');
    expect(JSON.parse(json.out)).toMatchObject({ username: 'dora', passkeys: [], recovery_codes_left: 10 });
    expectNoSecrets([listed.out, json.out], secrets);

    const refused = await adminOn(s, 'remove-factors', '--username', 'dora');
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('identity');
    expect(refused.err).toContain('--proofed');
    expect((await state(dora)).totp).not.toBeNull();
    const blank = await adminOn(s, 'remove-factors', '--username', 'dora', '--proofed', '   ');
    expect(blank.code).toBe(2);
    expect((await adminOn(s, 'remove-factors', '--username', 'nobody', '--proofed', 'x')).code).toBe(1);

    const [other] = Object.values(await s.signIn('hugo'));
    const removed = await adminOn(
      s,
      'remove-factors',
      '--username',
      'dora',
      '--proofed',
      'video call with ID, ticket 42',
    );
    expect(removed.code, removed.err).toBe(0);
    expect(removed.out).toContain('removed the authenticator app, 10 unused recovery code(s) of dora');
    expect(removed.out).toContain('identity proofed: video call with ID, ticket 42');
    expect(removed.out).toContain('ended 1 session(s) of dora');
    // Her sessions ended (a lost phone's too); hugo's did not.
    expect((await dora.req('GET', P.twoFactor)).status).toBe(401);
    expect((await other.req('GET', P.twoFactor)).status).toBe(200);
    const [again] = Object.values(await s.signIn('dora'));
    expect(await state(again)).toMatchObject({ totp: null, passkeys: [], recovery_codes_left: 0 });
    // Written by the CLI (its own clock, no client address): the history and the inbox have it.
    const byAdmin = (await history(again)).filter((e) => e.detail.by === 'admin');
    expect(byAdmin.map((e) => [e.kind, e.detail, e.address])).toEqual([
      ['second-factor.removed', { factor: 'all', by: 'admin' }, null],
    ]);
    expect(await inboxTitles(again)).toContain('Two-factor sign-in turned off');

    const nothing = await adminOn(s, 'remove-factors', '--username', 'dora', '--proofed', 'again');
    expect(nothing.out).toContain('dora has no second factor; nothing removed');
  });

  it('limits set-ups and passkey options to TWO_FACTOR_STARTS_PER_MINUTE per account (each stores a secret or a challenge)', async () => {
    const bob = s.clients.bob;
    await prove(bob);
    s.clock.advance(MIN);
    const answers: number[] = [];
    for (let i = 0; i < TWO_FACTOR_STARTS_PER_MINUTE + 1; i++) {
      const a = await bob.req('POST', P.totp);
      answers.push(a.status);
      if (a.status === 200) secrets.push(a.json.secret);
    }
    expect(answers.slice(0, -1).every((x) => x === 200)).toBe(true);
    expect(answers.at(-1)).toBe(429);
    // The other account's starts are its own.
    await prove(s.clients.gina);
    expect((await s.clients.gina.req('POST', P.totp)).status).toBe(200);
    s.clock.advance(MIN + 1000);
    await prove(bob);
    expect((await bob.req('POST', P.totp)).status).toBe(200);
  });

  it('never writes a secret or a recovery code to the log', () => {
    expect(secrets.length).toBeGreaterThan(30);
    expectNoSecrets(s.logs, secrets);
  });
});
