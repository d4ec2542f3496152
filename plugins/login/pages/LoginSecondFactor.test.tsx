import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBackend, ok, serviceError, type FakeRoutes } from '../../../tests/kit/fake-backend';
import { renderWithCore, TEST_USER } from '../../../tests/kit/web';
import LoginPage from './LoginPage';

// The browser's WebAuthn, mocked in this test only (the app loads the library when a passkey is used).
const webauthn = vi.hoisted(() => ({
  startAuthentication: vi.fn(),
  browserSupportsWebAuthn: vi.fn(() => true),
}));
vi.mock('@simplewebauthn/browser', () => webauthn);

let leaving: { mockRestore(): void } | undefined;

// A browser with WebAuthn (the page offers a passkey sign-in by the platform's feature test).
beforeEach(() => vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {}));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  leaving?.mockRestore();
  webauthn.startAuthentication.mockReset();
  webauthn.browserSupportsWebAuthn.mockReset().mockReturnValue(true);
});

const LOGIN = 'POST /users/ajax/login';
const STEP = 'POST /users/ajax/login/second-factor';
const STEP_OPTIONS = 'POST /users/ajax/login/second-factor:options';
const PASSKEY_OPTIONS = 'POST /users/ajax/login/passkey:options';
const PASSKEY = 'POST /users/ajax/login/passkey';
const ALL = { methods: ['totp', 'webauthn', 'recovery'], expires_at: 1_700_000_600_000 };
const SIGNED_IN = ok({ user: TEST_USER, must_change_password: false, csrf_token: 'csrf-1' });
const OPTIONS = { challenge: 'Y2hhbGxlbmdl', allowCredentials: [], userVerification: 'preferred' };
const ASSERTION = {
  id: 'Y3JlZA',
  rawId: 'Y3JlZA',
  response: { clientDataJSON: 'e30', authenticatorData: 'YXV0aA', signature: 'c2ln' },
  clientExtensionResults: {},
  type: 'public-key',
};

/** The sign-in page whose first step answers the step due with `challenge`; the page's leaving is recorded. */
async function open(
  options: { challenge?: unknown; routes?: FakeRoutes; locale?: 'zh_CN' | 'en_US'; pageData?: object } = {},
) {
  leaving?.mockRestore();
  const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => {});
  leaving = assign;
  const backend = fakeBackend({
    [LOGIN]: ok({ second_factor: options.challenge ?? ALL }),
    [STEP]: SIGNED_IN,
    'GET /users/ajax/users/:username/check': ok({ locked: false, need_captcha: false }),
    ...options.routes,
  });
  const view = await renderWithCore(<LoginPage />, {
    backend,
    user: null,
    route: '/users/login?next=%2Fusers%2Fsettings%2Fssh',
    locale: options.locale,
    pageData: options.pageData as Record<string, unknown> | undefined,
  });
  return { ...view, backend, assign };
}

async function firstStep(username = 'ann', password = 'Right@pass1') {
  fireEvent.change(await screen.findByLabelText('Account'), { target: { value: username } });
  fireEvent.change(document.getElementById('password')!, { target: { value: password } });
  await act(async () => fireEvent.click(screen.getByRole('button', { name: /^Sign in$/ })));
  await screen.findByRole('heading', { name: 'Two-factor authentication' });
}

const codeField = () => screen.getByLabelText('Authentication code') as HTMLInputElement;

describe('sign-in page: the second step', () => {
  it('asks for the app’s code, focused, and sends it at the sixth digit; then leaves for next', async () => {
    const { backend, assign } = await open();
    await firstStep();
    const field = codeField();
    expect(field.getAttribute('inputmode')).toBe('numeric');
    expect(field.getAttribute('autocomplete')).toBe('one-time-code');
    await waitFor(() => expect(document.activeElement).toBe(field));
    // The hint is tied to the field for a screen reader.
    const hint = document.getElementById(field.getAttribute('aria-describedby')!.split(' ').pop()!);
    expect(hint?.textContent).toBe('Enter the 6-digit code your authenticator app shows.');
    // The first step's form and the other ways in are gone.
    expect(screen.queryByLabelText('Password')).toBeNull();
    expect(screen.queryByTestId('passkey-sign-in')).toBeNull();

    fireEvent.change(field, { target: { value: '12 34' } });
    expect(field.value).toBe('1234');
    expect(backend.callsTo(STEP)).toHaveLength(0);
    await act(async () => fireEvent.change(field, { target: { value: '123 456' } }));
    await waitFor(() => expect(backend.callsTo(STEP)).toHaveLength(1));
    expect(backend.callsTo(STEP)[0].body).toEqual({ method: 'totp', code: '123456' });
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/users/settings/ssh'));
  });

  it('a wrong code says so and empties the field for the next one', async () => {
    const { backend } = await open({ routes: { [STEP]: serviceError(401, 'SecondFactorWrong', 'x') } });
    await firstStep();
    await waitFor(() => expect(document.activeElement).toBe(codeField()));
    await act(async () => fireEvent.change(codeField(), { target: { value: '000000' } }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'The code or passkey was not accepted, please try again',
    );
    await waitFor(() => expect(codeField().value).toBe(''));
    // The keyboard stays in the field for the next code.
    expect(document.activeElement).toBe(codeField());
    expect(backend.callsTo(STEP)).toHaveLength(1);
    expect(screen.getByRole('heading', { name: 'Two-factor authentication' })).toBeTruthy();
    // Another kind of code: what was said about the last one goes.
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Use a recovery code' })));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('switches to a recovery code and back to the app, keyboard focus following', async () => {
    const { backend } = await open();
    await firstStep();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Use a recovery code' })));
    const field = screen.getByLabelText('Recovery code') as HTMLInputElement;
    await waitFor(() => expect(document.activeElement).toBe(field));
    // A malformed one is not sent.
    fireEvent.change(field, { target: { value: 'nope' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Verify' })));
    expect(await screen.findByText('A recovery code looks like xxxx-xxxx-xxxx-xxxx')).toBeTruthy();
    expect(backend.callsTo(STEP)).toHaveLength(0);
    fireEvent.change(field, { target: { value: ' abcd-efgh-ijkl-mnop ' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Verify' })));
    await waitFor(() =>
      expect(backend.callsTo(STEP)[0]?.body).toEqual({ method: 'recovery', code: 'abcd-efgh-ijkl-mnop' }),
    );
  });

  it('offers "Use your authenticator app" from the recovery code, and no passkey without one', async () => {
    await open({ challenge: { methods: ['totp', 'recovery'], expires_at: 1 } });
    await firstStep();
    expect(screen.queryByRole('button', { name: 'Use a passkey or security key' })).toBeNull();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Use a recovery code' })));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Use your authenticator app' })));
    await waitFor(() => expect(document.activeElement).toBe(codeField()));
  });

  it('answers with a passkey: options, the browser’s prompt, the check', async () => {
    webauthn.startAuthentication.mockResolvedValue(ASSERTION);
    const { backend, assign } = await open({ routes: { [STEP_OPTIONS]: ok(OPTIONS) } });
    await firstStep();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Use a passkey or security key' })));
    await waitFor(() => expect(backend.callsTo(STEP)).toHaveLength(1));
    expect(webauthn.startAuthentication).toHaveBeenCalledWith({ optionsJSON: OPTIONS });
    expect(backend.callsTo(STEP)[0].body).toEqual({ method: 'webauthn', response: ASSERTION });
    await waitFor(() => expect(assign).toHaveBeenCalled());
  });

  it('a passkey-only account gets the passkey button first (focused); a closed prompt shows nothing', async () => {
    webauthn.startAuthentication.mockRejectedValue(Object.assign(new Error('closed'), { name: 'NotAllowedError' }));
    const { backend } = await open({
      challenge: { methods: ['webauthn', 'recovery'], expires_at: 1 },
      routes: { [STEP_OPTIONS]: ok(OPTIONS) },
    });
    await firstStep();
    expect(screen.queryByLabelText('Authentication code')).toBeNull();
    const button = screen.getByRole('button', { name: 'Use a passkey or security key' });
    await waitFor(() => expect(document.activeElement).toBe(button));
    await act(async () => fireEvent.click(button));
    await waitFor(() => expect(webauthn.startAuthentication).toHaveBeenCalled());
    expect(screen.queryByRole('alert')).toBeNull();
    expect(backend.callsTo(STEP)).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Use a recovery code' })).toBeTruthy();
  });

  it('"Back" starts over with the name kept; an expired step starts over saying so', async () => {
    const { backend } = await open({ routes: { [STEP]: serviceError(400, 'SecondFactorStepExpired', 'x') } });
    await firstStep('ann');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Back' })));
    expect((screen.getByLabelText('Account') as HTMLInputElement).value).toBe('ann');
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Sign in with account and password');

    await firstStep('ann');
    await act(async () => fireEvent.change(codeField(), { target: { value: '123456' } }));
    expect((await screen.findByRole('alert')).textContent).toContain('The sign-in has expired, please sign in again');
    expect(screen.getByLabelText('Account')).toBeTruthy();
    expect(backend.callsTo(LOGIN)).toHaveLength(2);
  });

  it('a locked account starts over with the lock’s message', async () => {
    await open({ routes: { [STEP]: serviceError(423, 'AccountLocked', 'x') } });
    await firstStep();
    await act(async () => fireEvent.change(codeField(), { target: { value: '123456' } }));
    expect((await screen.findByRole('alert')).textContent).toContain('The account is locked for 1 hour');
    expect(screen.getByLabelText('Account')).toBeTruthy();
  });

  it('after the second step a flagged account changes its password, as after a one-step sign-in', async () => {
    const { assign } = await open({
      routes: { [STEP]: ok({ user: TEST_USER, must_change_password: true, csrf_token: 'csrf-2' }) },
    });
    await firstStep();
    await act(async () => fireEvent.change(codeField(), { target: { value: '123456' } }));
    expect(await screen.findByRole('heading', { name: 'Change password' })).toBeTruthy();
    expect(assign).not.toHaveBeenCalled();
  });

  it('a third-party sign-in lands with the step in the first render, in Chinese', async () => {
    const { backend } = await open({ locale: 'zh_CN', pageData: { login: { secondFactor: ALL } } });
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('两步验证');
    expect(screen.getByLabelText('验证码')).toBeTruthy();
    expect(screen.getByRole('button', { name: '使用通行密钥或安全密钥' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '使用恢复码' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '返回' })).toBeTruthy();
    await act(async () => fireEvent.change(screen.getByLabelText('验证码'), { target: { value: '654321' } }));
    await waitFor(() => expect(backend.callsTo(STEP)[0]?.body).toEqual({ method: 'totp', code: '654321' }));
    expect(backend.callsTo(LOGIN)).toHaveLength(0);
  });
});

describe('sign-in page: sign in with a passkey', () => {
  it('shows the button where the browser can use passkeys; a passkey signs in without name or password', async () => {
    webauthn.startAuthentication.mockResolvedValue(ASSERTION);
    const { backend, assign } = await open({
      routes: { [PASSKEY_OPTIONS]: ok(OPTIONS), [PASSKEY]: SIGNED_IN },
    });
    const button = await screen.findByRole('button', { name: 'Sign in with a passkey' });
    await act(async () => fireEvent.click(button));
    await waitFor(() => expect(backend.callsTo(PASSKEY)).toHaveLength(1));
    expect(backend.callsTo(PASSKEY)[0].body).toEqual({ response: ASSERTION });
    expect(webauthn.startAuthentication).toHaveBeenCalledWith({ optionsJSON: OPTIONS });
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/users/settings/ssh'));
    expect(backend.callsTo(LOGIN)).toHaveLength(0);
  });

  it('a closed prompt shows nothing; a passkey the service refuses says so', async () => {
    webauthn.startAuthentication.mockRejectedValueOnce(Object.assign(new Error('x'), { name: 'NotAllowedError' }));
    const { backend } = await open({
      routes: { [PASSKEY_OPTIONS]: ok(OPTIONS), [PASSKEY]: serviceError(401, 'PasskeyNotRecognised', 'x') },
    });
    const button = await screen.findByRole('button', { name: 'Sign in with a passkey' });
    await act(async () => fireEvent.click(button));
    await waitFor(() => expect(webauthn.startAuthentication).toHaveBeenCalledTimes(1));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(backend.callsTo(PASSKEY)).toHaveLength(0);

    webauthn.startAuthentication.mockResolvedValueOnce(ASSERTION);
    await act(async () => fireEvent.click(button));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'This passkey cannot sign you in. Try another one or sign in with your password.',
    );
  });

  it('is not offered where the browser has no WebAuthn; says so in Chinese where it has', async () => {
    vi.unstubAllGlobals();
    const view = await open();
    await screen.findByLabelText('Account');
    expect(screen.queryByTestId('passkey-sign-in')).toBeNull();
    view.unmount();
    vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
    await open({ locale: 'zh_CN' });
    expect(await screen.findByRole('button', { name: '使用通行密钥登录' })).toBeTruthy();
  });
});
