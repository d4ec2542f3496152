import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeBackend, ok, serviceError, type FakeRoute } from '../../tests/kit/fake-backend';
import { rootStoreWithPageData, TEST_USER } from '../../tests/kit/web';
import { LoginStore } from './store';

// The browser's WebAuthn (mocked here only: the page loads it when a passkey is used).
const webauthn = vi.hoisted(() => ({
  startAuthentication: vi.fn(),
  browserSupportsWebAuthn: vi.fn(() => true),
}));
vi.mock('@simplewebauthn/browser', () => webauthn);

const LOGIN = 'POST /users/ajax/login';
const CHECK = 'GET /users/ajax/users/:username/check';
const SIGNED_IN = ok({ user: TEST_USER, must_change_password: false, csrf_token: 'csrf-1' });
const INCORRECT = serviceError(401, 'AccountOrPasswordIncorrect', 'Account or password incorrect.');

/** A backend whose sign-in answers come from a list, one per call (the last one repeats). */
function setup(logins: FakeRoute[], check: FakeRoute = ok({ locked: false, need_captcha: false })) {
  let n = 0;
  const backend = fakeBackend({
    [LOGIN]: (req) => {
      const route = logins[Math.min(n++, logins.length - 1)];
      return typeof route === 'function' ? route(req) : route;
    },
    [CHECK]: check,
  });
  return { store: new LoginStore(backend.client), backend };
}

describe('login store', () => {
  it('a wrong password asks the check, and without need_captcha shows no slider', async () => {
    const { store, backend } = setup([INCORRECT]);
    await store.signIn(' ann ', 'x');
    expect(store.failure).toEqual({ id: 'login.error.incorrect' });
    expect(backend.callsTo(LOGIN)[0].body).toEqual({ username: 'ann', password: 'x' });
    expect(backend.callsTo(CHECK).map((c) => c.path)).toEqual(['/users/ajax/users/ann/check']);
    expect(store.captchaFor).toBeNull();
    expect(store.saving).toBe(false);
  });

  it('shows the slider when the check asks for it; a sign-in then needs a pass, which serves once', async () => {
    const { store, backend } = setup([INCORRECT, INCORRECT, SIGNED_IN], ok({ locked: false, need_captcha: true }));
    await store.signIn('ann', 'x');
    expect(store.captchaFor).toBe('ann');
    const round = store.captchaRound;

    // Unsolved slider: refused in the page, nothing sent.
    await store.signIn('ann', 'y');
    expect(store.failure).toEqual({ id: 'login.error.captchaRequired' });
    expect(backend.callsTo(LOGIN)).toHaveLength(1);

    store.setCaptchaPass('pass-1');
    expect(store.captchaSolved).toBe(true);
    await store.signIn('ann', 'y');
    expect(backend.callsTo(LOGIN)[1].body).toEqual({ username: 'ann', password: 'y', captcha_pass: 'pass-1' });
    // Spent by the answer: the slider starts over with a fresh puzzle.
    expect(store.captchaSolved).toBe(false);
    expect(store.captchaRound).toBe(round + 1);
    expect(store.captchaFor).toBe('ann');

    store.setCaptchaPass('pass-2');
    await store.signIn('ann', 'right');
    expect(backend.callsTo(LOGIN)[2].body).toMatchObject({ captcha_pass: 'pass-2' });
    expect(store.done).toBe(true);
    expect(store.captchaSolved).toBe(false);
  });

  it('CaptchaRequired and CaptchaInvalid show the slider with their own messages, without asking the check', async () => {
    const { store, backend } = setup([
      serviceError(403, 'CaptchaRequired', 'Please complete the slider verification first.'),
      serviceError(403, 'CaptchaInvalid', 'The slider verification has expired.'),
    ]);
    await store.signIn('bob', 'x');
    expect(store.failure).toEqual({ id: 'login.error.captchaRequired' });
    expect(store.captchaFor).toBe('bob');
    store.setCaptchaPass('old-pass');
    const round = store.captchaRound;
    await store.signIn('bob', 'x');
    expect(store.failure).toEqual({ id: 'login.error.captchaInvalid' });
    expect(store.captchaRound).toBe(round + 1);
    expect(store.captchaSolved).toBe(false);
    expect(backend.callsTo(CHECK)).toHaveLength(0);
  });

  it('a sign-in for another name than the slider’s goes without a pass; the slider follows the service', async () => {
    let need = true;
    const { store, backend } = setup([INCORRECT], () => ok({ locked: false, need_captcha: need }));
    await store.signIn('ann', 'x');
    expect(store.captchaFor).toBe('ann');
    need = false;
    await store.signIn('carl', 'x');
    expect(backend.callsTo(LOGIN)[1].body).toEqual({ username: 'carl', password: 'x' });
    expect(store.captchaFor).toBe('ann');
    store.setCaptchaPass('p');
    await store.signIn('ann', 'x');
    // The service no longer asks for it (e.g. the failures aged out): the slider goes.
    expect(store.captchaFor).toBeNull();
  });

  it('a locked account and a throttled check say so', async () => {
    const { store } = setup(
      [serviceError(423, 'AccountLocked', 'locked'), INCORRECT],
      serviceError(429, 'TooManyRequestsMinute', 'slow'),
    );
    await store.signIn('ann', 'x');
    expect(store.failure).toEqual({ id: 'login.error.locked' });
    await store.signIn('ann', 'x');
    expect(store.failure).toEqual({ id: 'login.error.incorrect' });
    expect(store.captchaFor).toBeNull();
  });
});

describe('login store: directories and third-party binding', () => {
  const PENDING = 'GET /users/ajax/login/pending-bind';
  const WAITING = ok({ provider: 'lark', open_id: 'ou_1', name: 'Ann' });

  it('a directory sign-in sends its method and organisation, and never binds', async () => {
    const { store, backend } = setup([SIGNED_IN]);
    backend.on(PENDING, WAITING);
    await store.loadPendingBind();
    expect(store.pendingBind).toEqual({ provider: 'lark', open_id: 'ou_1', name: 'Ann' });
    await store.signIn('ann', 'x', { directory: 'ad', orgId: 'o1' });
    expect(backend.callsTo(LOGIN)[0].body).toEqual({ username: 'ann', password: 'x', method: 'ad', org_id: 'o1' });
    expect(store.done).toBe(true);
  });

  it('a password sign-in binds the waiting account; without one it sends no flag', async () => {
    const { store, backend } = setup([SIGNED_IN]);
    await store.signIn('ann', 'x');
    expect(backend.callsTo(LOGIN)[0].body).toEqual({ username: 'ann', password: 'x' });
    backend.on(PENDING, WAITING);
    await store.loadPendingBind();
    await store.signIn('ann', 'x');
    expect(backend.callsTo(LOGIN)[1].body).toEqual({ username: 'ann', password: 'x', bind_pending: true });
  });

  it('no waiting account (404) leaves nothing; cancelling forgets it', async () => {
    const { store, backend } = setup([SIGNED_IN]);
    backend.on(PENDING, serviceError(404, 'PendingBindNotFound'));
    await store.loadPendingBind();
    expect(store.pendingBind).toBeNull();
    backend.on(PENDING, WAITING);
    backend.on('DELETE /users/ajax/login/pending-bind', ok({ success: true }));
    await store.loadPendingBind();
    await store.cancelPendingBind();
    expect(store.pendingBind).toBeNull();
    expect(backend.callsTo('DELETE /users/ajax/login/pending-bind')).toHaveLength(1);
  });

  it('a third-party account bound to someone else, or one that expired, takes the banner away', async () => {
    const { store, backend } = setup([
      serviceError(409, 'ThirdPartyAccountBoundToOther', 'bound'),
      serviceError(404, 'PendingBindNotFound', 'gone'),
    ]);
    backend.on(PENDING, WAITING);
    await store.loadPendingBind();
    await store.signIn('ann', 'x');
    expect(store.failure).toEqual({ id: 'login.error.boundToOther' });
    expect(store.pendingBind).toBeNull();
    await store.loadPendingBind();
    await store.signIn('ann', 'x');
    expect(store.failure).toEqual({ id: 'login.error.bindExpired' });
    expect(store.pendingBind).toBeNull();
  });

  it('takes the waiting account the sign-in page brought without a call; a malformed one is asked for', async () => {
    const backend = fakeBackend({ [PENDING]: WAITING });
    const loaders = { login: () => import('./store') };
    const brought = { provider: 'dingtalk', open_id: 'ext-1', name: 'Erin' };
    const store = await rootStoreWithPageData(loaders, backend, { login: { pendingBind: brought } }).store('login');
    expect(store.broughtPendingBind).toEqual(brought);
    await store.loadPendingBind();
    expect(store.pendingBind).toEqual(brought);
    expect(store.broughtPendingBind).toBeUndefined();
    expect(backend.callsTo(PENDING)).toHaveLength(0);

    const none = await rootStoreWithPageData(loaders, backend, { login: { pendingBind: null } }).store('login');
    await none.loadPendingBind();
    expect(none.pendingBind).toBeNull();
    expect(backend.callsTo(PENDING)).toHaveLength(0);

    const odd = { login: { pendingBind: { provider: 'github', open_id: 'x', name: 'y' } } };
    const asked = await rootStoreWithPageData(loaders, backend, odd).store('login');
    expect(asked.broughtPendingBind).toBeUndefined();
    await asked.loadPendingBind();
    expect(asked.pendingBind).toEqual({ provider: 'lark', open_id: 'ou_1', name: 'Ann' });
    expect(backend.callsTo(PENDING)).toHaveLength(1);
  });

  it('explains the directory refusals with its own texts', async () => {
    const { store } = setup([
      serviceError(503, 'DirectoryUnavailable', 'down'),
      serviceError(400, 'DirectoryNotEnabled', 'off'),
      serviceError(409, 'DirectoryAccountConflict', 'taken'),
    ]);
    await store.signIn('ann', 'x', { directory: 'ldap' });
    expect(store.failure).toEqual({ id: 'login.error.directoryUnavailable' });
    await store.signIn('ann', 'x', { directory: 'ldap' });
    expect(store.failure).toEqual({ id: 'login.error.directoryNotEnabled' });
    await store.signIn('ann', 'x', { directory: 'ldap' });
    expect(store.failure).toEqual({ id: 'login.error.directoryAccountConflict' });
  });
});

describe('login store: the second factor (issue 41)', () => {
  const STEP = 'POST /users/ajax/login/second-factor';
  const STEP_OPTIONS = 'POST /users/ajax/login/second-factor:options';
  const PASSKEY_OPTIONS = 'POST /users/ajax/login/passkey:options';
  const PASSKEY = 'POST /users/ajax/login/passkey';
  const CHALLENGE = { methods: ['totp', 'webauthn', 'recovery'], expires_at: 1_700_000_600_000 };
  const DUE = ok({ second_factor: CHALLENGE });
  const OPTIONS = { challenge: 'Y2hhbGxlbmdl', allowCredentials: [], userVerification: 'preferred', timeout: 300000 };
  const ASSERTION = {
    id: 'Y3JlZA',
    rawId: 'Y3JlZA',
    response: { clientDataJSON: 'e30', authenticatorData: 'YXV0aA', signature: 'c2ln', userHandle: 'dXNlcg' },
    clientExtensionResults: {},
    type: 'public-key',
  };

  afterEach(() => {
    webauthn.startAuthentication.mockReset();
    webauthn.browserSupportsWebAuthn.mockReset().mockReturnValue(true);
  });

  it('a first step that answers the step due makes no session; a right code finishes the sign-in', async () => {
    const { store, backend } = setup([DUE]);
    backend.on(STEP, SIGNED_IN);
    await store.signIn('ann', 'Right@pass1');
    expect(store.secondFactor).toEqual(CHALLENGE);
    expect(store.done).toBe(false);
    expect(store.failure).toBeNull();
    await store.answerWithCode({ method: 'totp', code: '123456' });
    expect(backend.callsTo(STEP)[0].body).toEqual({ method: 'totp', code: '123456' });
    expect(store.secondFactor).toBeNull();
    expect(store.done).toBe(true);
  });

  it('after the second step a flagged account goes on to the forced change with the first step’s password', async () => {
    const { store, backend } = setup([DUE]);
    backend.on(STEP, ok({ user: TEST_USER, must_change_password: true, csrf_token: 'csrf-2' }));
    await store.signIn('ann', 'Right@pass1');
    await store.answerWithCode({ method: 'recovery', code: 'abcd-efgh-ijkl-mnop' });
    expect(backend.callsTo(STEP)[0].body).toEqual({ method: 'recovery', code: 'abcd-efgh-ijkl-mnop' });
    expect(store.pendingChange).toEqual({ csrfToken: 'csrf-2', oldPassword: 'Right@pass1' });
    expect(store.done).toBe(false);
  });

  it('a wrong code keeps the step and empties the field; expired or locked go back to the first step', async () => {
    const { store, backend } = setup([DUE]);
    backend.on(STEP, serviceError(401, 'SecondFactorWrong', 'not accepted'));
    await store.signIn('ann', 'x');
    const round = store.factorRound;
    await store.answerWithCode({ method: 'totp', code: '000000' });
    expect(store.failure).toEqual({ id: 'login.error.secondFactorWrong' });
    expect(store.factorRound).toBe(round + 1);
    expect(store.secondFactor).toEqual(CHALLENGE);

    backend.on(STEP, serviceError(423, 'AccountLocked', 'locked'));
    await store.answerWithCode({ method: 'totp', code: '000001' });
    expect(store.secondFactor).toBeNull();
    expect(store.failure).toEqual({ id: 'login.error.locked' });

    await store.signIn('ann', 'x');
    backend.on(STEP, serviceError(400, 'SecondFactorStepExpired', 'expired'));
    await store.answerWithCode({ method: 'totp', code: '000002' });
    expect(store.secondFactor).toBeNull();
    expect(store.failure).toEqual({ id: 'login.error.secondFactorExpired' });
    expect(store.lastUsername).toBe('ann');
  });

  it('answers with a passkey: the step’s options, the browser’s assertion, the check', async () => {
    const { store, backend } = setup([DUE]);
    backend.on(STEP_OPTIONS, ok(OPTIONS));
    backend.on(STEP, SIGNED_IN);
    webauthn.startAuthentication.mockResolvedValue(ASSERTION);
    await store.signIn('ann', 'x');
    await store.answerWithPasskey();
    expect(webauthn.startAuthentication).toHaveBeenCalledWith({ optionsJSON: OPTIONS });
    expect(backend.callsTo(STEP)[0].body).toEqual({ method: 'webauthn', response: ASSERTION });
    expect(store.done).toBe(true);
    expect(store.passkeyPending).toBe(false);
  });

  it('a closed passkey prompt says nothing and sends nothing; a broken one says so', async () => {
    const { store, backend } = setup([DUE]);
    backend.on(STEP_OPTIONS, ok(OPTIONS));
    await store.signIn('ann', 'x');
    webauthn.startAuthentication.mockRejectedValue(Object.assign(new Error('closed'), { name: 'NotAllowedError' }));
    await store.answerWithPasskey();
    expect(store.failure).toBeNull();
    expect(store.passkeyPending).toBe(false);
    expect(backend.callsTo(STEP)).toHaveLength(0);
    expect(store.secondFactor).toEqual(CHALLENGE);

    webauthn.startAuthentication.mockRejectedValue(Object.assign(new Error('boom'), { name: 'UnknownError' }));
    await store.answerWithPasskey();
    expect(store.failure).toEqual({ id: 'core.secondFactor.passkeyFailed' });
    expect(backend.callsTo(STEP)).toHaveLength(0);
  });

  it('signs in with a passkey alone; a refused one says so; a browser without WebAuthn says so', async () => {
    const { store, backend } = setup([INCORRECT]);
    backend.on(PASSKEY_OPTIONS, ok(OPTIONS));
    backend.on(PASSKEY, serviceError(401, 'PasskeyNotRecognised', 'no'));
    webauthn.startAuthentication.mockResolvedValue(ASSERTION);
    await store.signInWithPasskey();
    expect(backend.callsTo(PASSKEY_OPTIONS)).toHaveLength(1);
    expect(backend.callsTo(PASSKEY)[0].body).toEqual({ response: ASSERTION });
    expect(store.failure).toEqual({ id: 'login.error.passkeyNotRecognised' });
    expect(store.done).toBe(false);

    backend.on(PASSKEY, SIGNED_IN);
    await store.signInWithPasskey();
    expect(store.done).toBe(true);
    expect(backend.callsTo(LOGIN)).toHaveLength(0);

    webauthn.browserSupportsWebAuthn.mockReturnValue(false);
    const other = setup([INCORRECT]);
    other.backend.on(PASSKEY_OPTIONS, ok(OPTIONS));
    await other.store.signInWithPasskey();
    expect(other.store.failure).toEqual({ id: 'core.secondFactor.passkeyUnsupported' });
    expect(other.backend.callsTo(PASSKEY)).toHaveLength(0);
  });

  it('a passkey sign-in of a flagged account asks for the password sign-in, whose change needs the old password', async () => {
    const { store, backend } = setup([INCORRECT]);
    backend.on(PASSKEY_OPTIONS, ok(OPTIONS));
    backend.on(PASSKEY, ok({ user: TEST_USER, must_change_password: true, csrf_token: 'c' }));
    webauthn.startAuthentication.mockResolvedValue(ASSERTION);
    await store.signInWithPasskey();
    expect(store.pendingChange).toBeNull();
    expect(store.done).toBe(false);
    expect(store.failure).toEqual({ id: 'login.passkey.mustChangePassword' });
  });

  it('the step takes the waiting third-party account: "Back" takes the banner away', async () => {
    const { store, backend } = setup([DUE]);
    backend.on('GET /users/ajax/login/pending-bind', ok({ provider: 'lark', open_id: 'ou_1', name: 'Ann' }));
    await store.loadPendingBind();
    await store.signIn('ann', 'x');
    expect(backend.callsTo(LOGIN)[0].body).toMatchObject({ bind_pending: true });
    store.startOver();
    expect(store.secondFactor).toBeNull();
    expect(store.pendingBind).toBeNull();
  });

  it('takes the step a third-party sign-in brought with the page; a malformed one is ignored', async () => {
    const backend = fakeBackend({});
    const loaders = { login: () => import('./store') };
    const brought = await rootStoreWithPageData(loaders, backend, { login: { secondFactor: CHALLENGE } }).store(
      'login',
    );
    expect(brought.secondFactor).toEqual(CHALLENGE);
    for (const secondFactor of [null, { methods: ['sms'], expires_at: 1 }, { methods: [], expires_at: 1 }]) {
      const odd = await rootStoreWithPageData(loaders, backend, { login: { secondFactor } }).store('login');
      expect(odd.secondFactor).toBeNull();
    }
  });
});
