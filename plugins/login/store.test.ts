import { describe, expect, it } from 'vitest';
import { fakeBackend, ok, serviceError, type FakeRoute } from '../../tests/kit/fake-backend';
import { rootStoreWithPageData, TEST_USER } from '../../tests/kit/web';
import { LoginStore } from './store';

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
