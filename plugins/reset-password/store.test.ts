import { afterEach, describe, expect, it, vi } from 'vitest';
import { TOTP_PERIOD_SECONDS } from '../../schemas/second-factor-limits';
import { fakeBackend, ok, serviceError, type FakeRoutes } from '../../tests/kit/fake-backend';
import { RECOVERY_CODE_TTL_MS, RECOVERY_RESEND_MS } from './limits';
import { ResetPasswordStore } from './store';

// The browser's WebAuthn (mocked here only: the wizard loads it when a passkey is used).
const webauthn = vi.hoisted(() => ({ startAuthentication: vi.fn(), browserSupportsWebAuthn: vi.fn(() => true) }));
vi.mock('@simplewebauthn/browser', () => webauthn);

const CHECK = 'GET /users/ajax/users/:username/check';
const RETRIEVE = 'POST /users/ajax/users/:username/password:retrieve';
const SEND = 'POST /users/ajax/users/:username/emailCaptcha';
const VERIFY = 'POST /users/ajax/users/:username/emailCaptcha:verify';
const RESET = 'PUT /users/ajax/users/:username/password:reset';

/** The service's clock runs 7 s ahead of the browser's: the countdown must follow the service, not the offset. */
const SERVER_NOW = 1_700_000_007_000;
const LOCAL_NOW = 1_700_000_000_000;

const HAPPY: FakeRoutes = {
  [CHECK]: ok({ locked: false, need_captcha: false, exists: true, email: 'a***@example.com' }),
  [RETRIEVE]: ok({ flow: 'flow-1', email: 'a***@example.com', expires_at: SERVER_NOW + 1_800_000 }),
  [SEND]: ok({
    email: 'a***@example.com',
    code_expires_at: SERVER_NOW + RECOVERY_CODE_TTL_MS,
    resend_available_at: SERVER_NOW + RECOVERY_RESEND_MS,
  }),
  [VERIFY]: ok({ ticket: 'ticket-1', expires_at: SERVER_NOW + 600_000 }),
  [RESET]: ok({ success: true }),
};

function setup(routes: FakeRoutes = {}) {
  const backend = fakeBackend({ ...HAPPY, ...routes });
  const now = { value: LOCAL_NOW };
  const store = new ResetPasswordStore(backend.client, () => now.value);
  return { store, backend, now };
}

/** Walks the first step with a solved slider's pass. */
async function confirmed(store: ResetPasswordStore, name = 'ann') {
  store.chooseAccount(` ${name} `);
  await store.confirmAccount('pass-1');
}

describe('reset-password store', () => {
  it('walks account → code → new password, sending each secret only where it belongs', async () => {
    const { store, backend } = setup();
    expect(store.step).toBe('account');
    store.chooseAccount('  ');
    expect(store.username).toBe('');
    await confirmed(store, 'ann smith');
    expect(store.username).toBe('ann smith');

    const [check] = backend.callsTo(CHECK);
    expect(check.path).toBe('/users/ajax/users/ann%20smith/check');
    expect(check.headers['X-Captcha-Pass']).toBe('pass-1');
    expect(backend.callsTo(RETRIEVE)[0].body).toEqual({ captcha_pass: 'pass-1' });
    expect(store.step).toBe('verify');
    expect(store.email).toBe('a***@example.com');

    await store.sendCode();
    expect(backend.callsTo(SEND)[0].body).toEqual({ flow: 'flow-1' });
    expect(store.codeSent).toBe(true);
    expect(store.resendAvailableAt).toBe(LOCAL_NOW + RECOVERY_RESEND_MS);
    expect(store.sending).toBe(false);

    await store.verifyCode(' 123456 ');
    expect(backend.callsTo(VERIFY)[0].body).toEqual({ flow: 'flow-1', code: '123456' });
    expect(store.step).toBe('reset');

    await store.resetPassword('New@pass1');
    expect(backend.callsTo(RESET)[0].body).toEqual({ ticket: 'ticket-1', new_password: 'New@pass1' });
    expect(store.step).toBe('done');
    // The secrets were never in a URL or the browser's storage.
    for (const c of backend.calls)
      expect(`${c.path}?${new URLSearchParams(c.query)}`).not.toMatch(/flow-1|ticket-1|pass-1/);
    expect(localStorage.length + sessionStorage.length).toBe(0);
  });

  it('an unknown account or one without e-mail shows the catalogue text and a fresh slider', async () => {
    const { store, backend } = setup({ [CHECK]: serviceError(404, 'AccountNotExist', 'The account does not exist.') });
    const round = store.captchaRound;
    await confirmed(store);
    expect(store.failure).toEqual({ id: 'reset-password.error.accountNotExist' });
    expect(store.step).toBe('account');
    expect(store.captchaRound).toBe(round + 1);
    expect(backend.callsTo(RETRIEVE)).toHaveLength(0);

    backend.on(CHECK, serviceError(400, 'AccountNoEmail', 'No e-mail.'));
    await store.confirmAccount('pass-2');
    expect(store.failure).toEqual({ id: 'reset-password.error.accountNoEmail' });

    backend.on(CHECK, serviceError(429, 'TooManyRequestsMinute', 'slow'));
    await store.confirmAccount('pass-3');
    expect(store.failure).toEqual({ id: 'reset-password.error.tooMany' });

    backend.on(CHECK, HAPPY[CHECK]);
    backend.on(RETRIEVE, serviceError(403, 'CaptchaInvalid', 'used'));
    await store.confirmAccount('pass-4');
    expect(store.failure).toEqual({ id: 'reset-password.error.captchaInvalid' });
    expect(store.step).toBe('account');
  });

  it('"Next" again on the same name asks for a fresh puzzle', () => {
    const { store } = setup();
    store.chooseAccount('ann');
    const round = store.captchaRound;
    store.chooseAccount('ann');
    expect(store.captchaRound).toBe(round + 1);
    store.chooseAccount('bob');
    expect(store.username).toBe('bob');
  });

  it('mail problems are explained: not configured, too frequent, failed', async () => {
    const { store, backend } = setup({
      [SEND]: serviceError(503, 'MailServiceNotConfigured', 'no mail', 'req-1'),
    });
    await confirmed(store);
    await store.sendCode();
    expect(store.failure).toEqual({ id: 'reset-password.error.mailNotConfigured' });
    expect(store.codeSent).toBe(false);
    expect(store.step).toBe('verify');

    backend.on(SEND, serviceError(429, 'RecoveryMailTooFrequent', 'wait'));
    await store.sendCode();
    expect(store.failure).toEqual({ id: 'reset-password.error.mailTooFrequent' });

    backend.on(SEND, serviceError(502, 'RecoveryMailFailed', 'smtp', 'req-2'));
    await store.sendCode();
    expect(store.failure).toEqual({ id: 'reset-password.error.mailFailed' });
    expect(store.sending).toBe(false);
  });

  it('a wrong code shows the tries left; a used-up one asks for a new code; a malformed one is not sent', async () => {
    const { store, backend } = setup({
      [VERIFY]: serviceError(400, 'VerificationCodeIncorrect', 'The verification code is incorrect (4 tries left).'),
    });
    await confirmed(store);
    await store.sendCode();
    await store.verifyCode('12a456');
    expect(store.failure).toEqual({ id: 'core.validation.codeInvalid' });
    expect(backend.callsTo(VERIFY)).toHaveLength(0);

    await store.verifyCode('111111');
    expect(store.failure).toEqual({ text: 'The verification code is incorrect (4 tries left).' });
    const round = store.codeRound;
    backend.on(VERIFY, serviceError(400, 'VerificationCodeExhausted', 'get a new one'));
    await store.verifyCode('222222');
    expect(store.failure).toEqual({ id: 'reset-password.error.codeExhausted' });
    expect(store.codeRound).toBe(round + 1);
    expect(store.step).toBe('verify');
  });

  it('an invalid page (flow or ticket gone) goes back to the first step with a fresh slider', async () => {
    const { store, backend } = setup({ [SEND]: serviceError(400, 'RecoveryPageInvalid', 'invalid') });
    await confirmed(store);
    const round = store.captchaRound;
    await store.sendCode();
    expect(store.step).toBe('account');
    expect(store.failure).toEqual({ id: 'reset-password.error.pageInvalid' });
    expect(store.captchaRound).toBe(round + 1);
    expect(store.username).toBe('ann');
    expect(store.email).toBe('');
    // Nothing of the old flow is left to send.
    await store.sendCode();
    expect(backend.callsTo(SEND)).toHaveLength(1);

    // A stale ticket at the last step does the same.
    backend.on(SEND, HAPPY[SEND]);
    backend.on(RESET, serviceError(400, 'RecoveryPageInvalid', 'invalid'));
    await store.confirmAccount('pass-2');
    await store.sendCode();
    await store.verifyCode('123456');
    await store.resetPassword('New@pass1');
    expect(store.step).toBe('account');
    expect(store.failure).toEqual({ id: 'reset-password.error.pageInvalid' });
    await store.resetPassword('New@pass1');
    expect(backend.callsTo(RESET)).toHaveLength(1);
  });

  it('the password rule refusals use the core texts', async () => {
    const { store, backend } = setup({ [RESET]: serviceError(400, 'PasswordComposition', 'x') });
    await confirmed(store);
    await store.sendCode();
    await store.verifyCode('123456');
    await store.resetPassword('abcdefgh');
    expect(store.failure).toEqual({ id: 'core.validation.passwordComposition' });
    expect(store.step).toBe('reset');
    backend.on(RESET, serviceError(400, 'PasswordTooShort', 'x'));
    await store.resetPassword('a');
    expect(store.failure).toEqual({ id: 'core.validation.passwordTooShort' });
  });

  it('leaving the page forgets the recovery', async () => {
    const { store, backend } = setup();
    await confirmed(store);
    store.leave();
    expect(store.step).toBe('account');
    expect(store.username).toBe('');
    await store.sendCode();
    expect(backend.callsTo(SEND)).toHaveLength(0);
  });
});

describe('reset-password store: the second factor (issue 41)', () => {
  const OPTIONS_CALL = 'POST /users/ajax/users/:username/password:second-factor-options';
  const CHALLENGE = { methods: ['totp', 'webauthn', 'recovery'], expires_at: SERVER_NOW + 600_000 };
  const TICKET_2FA = ok({ ticket: 'ticket-1', expires_at: SERVER_NOW + 600_000, second_factor: CHALLENGE });
  const OPTIONS = { challenge: 'Y2hhbGxlbmdl', allowCredentials: [{ id: 'Y3JlZA', type: 'public-key' }] };
  const ASSERTION = {
    id: 'Y3JlZA',
    rawId: 'Y3JlZA',
    response: { clientDataJSON: 'e30', authenticatorData: 'YXV0aA', signature: 'c2ln' },
    clientExtensionResults: {},
    type: 'public-key',
  };

  afterEach(() => webauthn.startAuthentication.mockReset());

  /** A store at the factor step. */
  async function atFactor(routes: FakeRoutes = {}) {
    const s = setup({ [VERIFY]: TICKET_2FA, ...routes });
    await confirmed(s.store);
    await s.store.sendCode();
    await s.store.verifyCode('123456');
    return s;
  }

  it('asks for the factor before the new password and sends its answer with the reset', async () => {
    const { store, backend } = await atFactor();
    expect(store.step).toBe('factor');
    expect(store.secondFactor).toEqual(CHALLENGE);
    await store.answerWithCode({ method: 'totp', code: '654321' });
    expect(store.step).toBe('reset');
    expect(backend.callsTo(RESET)).toHaveLength(0);
    await store.resetPassword('New@pass1');
    expect(backend.callsTo(RESET)[0].body).toEqual({
      ticket: 'ticket-1',
      new_password: 'New@pass1',
      second_factor: { method: 'totp', code: '654321' },
    });
    expect(store.step).toBe('done');
    expect(store.secondFactor).toBeNull();
  });

  it('an account without a factor sends none', async () => {
    const { store, backend } = setup();
    await confirmed(store);
    await store.sendCode();
    await store.verifyCode('123456');
    expect(store.step).toBe('reset');
    await store.resetPassword('New@pass1');
    expect(backend.callsTo(RESET)[0].body).toEqual({ ticket: 'ticket-1', new_password: 'New@pass1' });
  });

  it('a refused factor asks again with the password kept; the next answer resets at once', async () => {
    const { store, backend } = await atFactor({ [RESET]: serviceError(401, 'RecoveryFactorWrong', 'x') });
    await store.answerWithCode({ method: 'recovery', code: 'aaaa-bbbb-cccc-dddd' });
    const round = store.factorRound;
    await store.resetPassword('New@pass1');
    expect(store.step).toBe('factor');
    expect(store.failure).toEqual({ id: 'reset-password.error.factorWrong' });
    expect(store.factorRound).toBe(round + 1);
    expect(store.passwordKept).toBe(true);

    backend.on(RESET, ok({ success: true }));
    await store.answerWithCode({ method: 'recovery', code: 'eeee-ffff-gggg-hhhh' });
    expect(backend.callsTo(RESET)[1].body).toEqual({
      ticket: 'ticket-1',
      new_password: 'New@pass1',
      second_factor: { method: 'recovery', code: 'eeee-ffff-gggg-hhhh' },
    });
    expect(store.step).toBe('done');
    expect(store.passwordKept).toBe(false);
  });

  it('an app code whose time step has passed is not sent: the current one is asked for', async () => {
    const { store, backend, now } = await atFactor();
    await store.answerWithCode({ method: 'totp', code: '111111' });
    // Two steps later the service (one step of drift) no longer takes it.
    now.value += 2 * TOTP_PERIOD_SECONDS * 1000;
    await store.resetPassword('New@pass1');
    expect(backend.callsTo(RESET)).toHaveLength(0);
    expect(store.step).toBe('factor');
    expect(store.failure).toEqual({ id: 'reset-password.error.factorAged' });
    await store.answerWithCode({ method: 'totp', code: '222222' });
    expect(backend.callsTo(RESET)[0].body).toMatchObject({ second_factor: { method: 'totp', code: '222222' } });
    expect(store.step).toBe('done');
  });

  it('answers with a passkey: options by the ticket, the browser’s assertion with the reset', async () => {
    webauthn.startAuthentication.mockResolvedValue(ASSERTION);
    const { store, backend } = await atFactor({ [OPTIONS_CALL]: ok(OPTIONS) });
    await store.answerWithPasskey();
    const [options] = backend.callsTo(OPTIONS_CALL);
    expect(options.path).toBe('/users/ajax/users/ann/password:second-factor-options');
    expect(options.body).toEqual({ ticket: 'ticket-1' });
    expect(webauthn.startAuthentication).toHaveBeenCalledWith({ optionsJSON: OPTIONS });
    expect(store.step).toBe('reset');
    await store.resetPassword('New@pass1');
    expect(backend.callsTo(RESET)[0].body).toMatchObject({
      second_factor: { method: 'webauthn', response: ASSERTION },
    });
  });

  it('a closed prompt stays silent; a gone ticket or a locked account starts over', async () => {
    webauthn.startAuthentication.mockRejectedValue(Object.assign(new Error('x'), { name: 'NotAllowedError' }));
    const { store, backend } = await atFactor({ [OPTIONS_CALL]: ok(OPTIONS) });
    await store.answerWithPasskey();
    expect(store.failure).toBeNull();
    expect(store.step).toBe('factor');
    expect(store.passkeyPending).toBe(false);

    backend.on(OPTIONS_CALL, serviceError(400, 'RecoveryPageInvalid', 'x'));
    await store.answerWithPasskey();
    expect(store.step).toBe('account');
    expect(store.failure).toEqual({ id: 'reset-password.error.pageInvalid' });
    expect(store.secondFactor).toBeNull();

    backend.on(RESET, serviceError(423, 'RecoveryAccountLocked', 'x'));
    await store.confirmAccount('pass-2');
    await store.sendCode();
    await store.verifyCode('123456');
    await store.answerWithCode({ method: 'totp', code: '333333' });
    await store.resetPassword('New@pass1');
    expect(store.step).toBe('account');
    expect(store.failure).toEqual({ id: 'reset-password.error.locked' });
    expect(store.passwordKept).toBe(false);
  });
});
