import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { edition } from '../../../src/core/edition';
import { fakeBackend, ok, serviceError, type FakeRoutes } from '../../../tests/kit/fake-backend';
import { renderWithCore } from '../../../tests/kit/web';
import { RECOVERY_CODE_TTL_MS } from '../limits';
import { ResetPasswordStore } from '../store';
import ResetPasswordPage from './ResetPasswordPage';

// The browser's WebAuthn, mocked in this test only (the wizard loads it when a passkey is used).
const webauthn = vi.hoisted(() => ({ startAuthentication: vi.fn(), browserSupportsWebAuthn: vi.fn(() => true) }));
vi.mock('@simplewebauthn/browser', () => webauthn);

afterEach(() => {
  vi.useRealTimers();
  cleanup();
  webauthn.startAuthentication.mockReset();
});

const NOW = 1_700_000_000_000;
const PUZZLE = {
  captcha_id: 'p1',
  background: 'data:image/png;base64,iVBORw0KGgo=',
  piece: 'data:image/png;base64,iVBORw0KGgo=',
  width: 320,
  height: 160,
  piece_size: 56,
  piece_y: 30,
  expires_at: NOW + 300_000,
};

function backendWith(routes: FakeRoutes = {}) {
  return fakeBackend({
    'POST /users/ajax/users/:username/sliderCaptcha': ok(PUZZLE),
    'POST /users/ajax/users/:username/sliderCaptcha:verify': ok({ pass: 'pass-1', expires_at: NOW + 120_000 }),
    'GET /users/ajax/users/:username/check': ok({
      locked: false,
      need_captcha: false,
      exists: true,
      email: 'a***@x.io',
    }),
    'POST /users/ajax/users/:username/password:retrieve': ok({ flow: 'flow-1', email: 'a***@x.io', expires_at: 0 }),
    'POST /users/ajax/users/:username/emailCaptcha': ok({
      email: 'a***@x.io',
      code_expires_at: NOW + RECOVERY_CODE_TTL_MS,
      resend_available_at: NOW + 60_000,
    }),
    'POST /users/ajax/users/:username/emailCaptcha:verify': ok({ ticket: 'ticket-1', expires_at: 0 }),
    'PUT /users/ajax/users/:username/password:reset': ok({ success: true }),
    ...routes,
  });
}

async function show(routes: FakeRoutes = {}, locale: 'en_US' | 'zh_CN' = 'en_US') {
  const backend = backendWith(routes);
  const now = { value: NOW };
  const store = new ResetPasswordStore(backend.client, () => now.value);
  const view = await renderWithCore(<ResetPasswordPage />, {
    backend,
    user: null,
    locale,
    route: '/users/resetpassword',
    stores: { resetPassword: store },
  });
  return { ...view, store, now };
}

const button = (name: string | RegExp) => screen.getByRole('button', { name });

async function confirmAccount(username: string) {
  fireEvent.change(await screen.findByLabelText('Account'), { target: { value: username } });
  await act(async () => fireEvent.click(button(/Next$/)));
  const handle = await screen.findByRole('slider', { name: 'Drag the slider to fit the piece into the gap' });
  await waitFor(() => expect(handle.getAttribute('aria-disabled')).toBeNull());
  for (let i = 0; i < 3; i++) fireEvent.keyDown(handle, { key: 'ArrowRight', shiftKey: true });
  await act(async () => fireEvent.keyDown(handle, { key: 'Enter' }));
}

describe('reset-password page', () => {
  it('walks the three steps with a visible stepper, from the account to the sign-in link', async () => {
    const { backend, now } = await show();
    expect(screen.getByText('Confirm account')).toBeTruthy();
    expect(screen.getByText('Security verification')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to sign in' }).getAttribute('href')).toBe(edition.paths.relogin);

    await confirmAccount('ann');
    expect(backend.callsTo('POST /users/ajax/users/:username/sliderCaptcha')[0].body).toEqual({ scene: 'recovery' });
    expect((await screen.findByTestId('reset-password-email')).textContent).toBe('a***@x.io');
    expect(screen.getByText(/The verification code will be sent to/)).toBeTruthy();
    expect(backend.callsTo('GET /users/ajax/users/:username/check')[0].headers['X-Captcha-Pass']).toBe('pass-1');

    // The resend countdown runs on the injected clock.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    expect((button(/Next$/) as HTMLButtonElement).disabled).toBe(true);
    await act(async () => fireEvent.click(button('Send code')));
    const send = screen.getByTestId('reset-password-send') as HTMLButtonElement;
    expect(send.textContent).toBe('Resend in 60 s');
    expect(send.disabled).toBe(true);
    now.value += 59_000;
    act(() => vi.advanceTimersByTime(1000));
    expect(send.textContent).toBe('Resend in 1 s');
    now.value += 1_000;
    act(() => vi.advanceTimersByTime(1000));
    expect(send.textContent).toBe('Resend code');
    expect(send.disabled).toBe(false);
    vi.useRealTimers();

    // Digits only, six of them.
    const code = screen.getByLabelText('Verification code') as HTMLInputElement;
    fireEvent.change(code, { target: { value: '12a3-4567' } });
    expect(code.value).toBe('123456');
    await act(async () => fireEvent.click(button(/Next$/)));
    await waitFor(() =>
      expect(backend.callsTo('POST /users/ajax/users/:username/emailCaptcha:verify')[0]?.body).toEqual({
        flow: 'flow-1',
        code: '123456',
      }),
    );

    expect(await screen.findByText('Set a new password for the account ann.')).toBeTruthy();
    fireEvent.change(document.getElementById('password')!, { target: { value: 'short' } });
    fireEvent.change(document.getElementById('confirm')!, { target: { value: 'short' } });
    await act(async () => fireEvent.click(button(/Reset password$/)));
    expect(await screen.findByText('The password must be at least 8 characters long.')).toBeTruthy();
    fireEvent.change(document.getElementById('password')!, { target: { value: 'New@pass12' } });
    fireEvent.change(document.getElementById('confirm')!, { target: { value: 'New@pass12' } });
    await act(async () => fireEvent.click(button(/Reset password$/)));

    expect(await screen.findByText('Your password has been reset')).toBeTruthy();
    expect(backend.callsTo('PUT /users/ajax/users/:username/password:reset')[0].body).toEqual({
      ticket: 'ticket-1',
      new_password: 'New@pass12',
    });
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe(edition.paths.relogin);
    expect(window.location.href).not.toMatch(/flow-1|ticket-1|pass-1/);
  });

  it('shows the catalogue text for an unknown account only after the slider, then a fresh puzzle', async () => {
    const { backend } = await show({
      'GET /users/ajax/users/:username/check': serviceError(404, 'AccountNotExist', 'The account does not exist.'),
    });
    expect(screen.queryByRole('alert')).toBeNull();
    await confirmAccount('nobody');
    expect((await screen.findByRole('alert')).textContent).toContain('The account does not exist');
    await waitFor(() => expect(backend.callsTo('POST /users/ajax/users/:username/sliderCaptcha')).toHaveLength(2));
    expect(backend.callsTo('POST /users/ajax/users/:username/password:retrieve')).toHaveLength(0);
    // Editing the name hides the slider until "Next" is pressed for the new one.
    fireEvent.change(screen.getByLabelText('Account'), { target: { value: 'ann' } });
    await waitFor(() => expect(screen.queryByRole('slider')).toBeNull());
    expect(button(/Next$/)).toBeTruthy();
  });

  it('names an enterprise without an e-mail service and stays on the step', async () => {
    const { store } = await show({
      'POST /users/ajax/users/:username/emailCaptcha': serviceError(503, 'MailServiceNotConfigured', 'x'),
    });
    await confirmAccount('ann');
    await act(async () => fireEvent.click(await screen.findByRole('button', { name: 'Send code' })));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'The email service is not configured for the enterprise',
    );
    expect(store.step).toBe('verify');
  });

  it('speaks Chinese', async () => {
    await show({}, 'zh_CN');
    expect(screen.getByText('确认账号')).toBeTruthy();
    expect(screen.getByText('安全验证')).toBeTruthy();
    expect(screen.getByRole('link', { name: '返回登录' })).toBeTruthy();
  });
});

describe('reset-password page: the second factor (issue 41)', () => {
  const RESET = 'PUT /users/ajax/users/:username/password:reset';
  const OPTIONS_CALL = 'POST /users/ajax/users/:username/password:second-factor-options';
  const TICKET = {
    'POST /users/ajax/users/:username/emailCaptcha:verify': ok({
      ticket: 'ticket-1',
      expires_at: 0,
      second_factor: { methods: ['totp', 'webauthn', 'recovery'], expires_at: 0 },
    }),
  };

  /** Walks to the factor step: account, slider, mailed code. */
  async function toFactor(routes: FakeRoutes = {}, locale: 'en_US' | 'zh_CN' = 'en_US') {
    const view = await show({ ...TICKET, ...routes }, locale);
    await confirmAccount('ann');
    await act(async () => fireEvent.click(await screen.findByTestId('reset-password-send')));
    fireEvent.change(screen.getByLabelText('Verification code'), { target: { value: '123456' } });
    await act(async () => fireEvent.click(button(/Next$/)));
    return view;
  }

  async function newPassword(value: string) {
    fireEvent.change(await screen.findByLabelText('New password'), { target: { value } });
    fireEvent.change(document.getElementById('confirm')!, { target: { value } });
    await act(async () => fireEvent.click(button(/Reset password$/)));
  }

  it('asks for the factor before the new password; the reset carries its answer', async () => {
    const { backend } = await toFactor();
    expect(
      await screen.findByText(
        'Your account has two-factor authentication. Confirm it is you before setting a new password.',
      ),
    ).toBeTruthy();
    // Still the security verification in the stepper.
    expect(document.querySelector('.ant-steps-item-process')?.textContent).toContain('Security verification');
    const code = screen.getByLabelText('Authentication code');
    await waitFor(() => expect(document.activeElement).toBe(code));
    await act(async () => fireEvent.change(code, { target: { value: '654321' } }));
    await newPassword('New@pass12');
    await screen.findByText('Your password has been reset');
    expect(backend.callsTo(RESET)[0].body).toEqual({
      ticket: 'ticket-1',
      new_password: 'New@pass12',
      second_factor: { method: 'totp', code: '654321' },
    });
  });

  it('a refused factor comes back with the password kept: the next code resets at once', async () => {
    const { backend } = await toFactor({ [RESET]: serviceError(401, 'RecoveryFactorWrong', 'x') });
    await act(async () => fireEvent.click(await screen.findByRole('button', { name: 'Use a recovery code' })));
    fireEvent.change(screen.getByLabelText('Recovery code'), { target: { value: 'aaaa-bbbb-cccc-dddd' } });
    await act(async () => fireEvent.click(button('Next')));
    await newPassword('New@pass12');
    expect((await screen.findByRole('alert')).textContent).toContain(
      'The code or passkey was not accepted, please try again',
    );
    expect(screen.getByText(/Your new password is kept/)).toBeTruthy();
    backend.on(RESET, ok({ success: true }));
    await act(async () =>
      fireEvent.change(screen.getByLabelText('Authentication code'), { target: { value: '222222' } }),
    );
    await screen.findByText('Your password has been reset');
    expect(backend.callsTo(RESET)[1].body).toEqual({
      ticket: 'ticket-1',
      new_password: 'New@pass12',
      second_factor: { method: 'totp', code: '222222' },
    });
  });

  it('answers with a passkey', async () => {
    const assertion = {
      id: 'Y3JlZA',
      rawId: 'Y3JlZA',
      response: { clientDataJSON: 'e30', authenticatorData: 'YXV0aA', signature: 'c2ln' },
      clientExtensionResults: {},
      type: 'public-key',
    };
    webauthn.startAuthentication.mockResolvedValueOnce(assertion);
    const { backend } = await toFactor({ [OPTIONS_CALL]: ok({ challenge: 'Y2g' }) });
    await act(async () =>
      fireEvent.click(await screen.findByRole('button', { name: 'Use a passkey or security key' })),
    );
    await newPassword('New@pass12');
    await screen.findByText('Your password has been reset');
    expect(backend.callsTo(OPTIONS_CALL)[0].body).toEqual({ ticket: 'ticket-1' });
    expect(backend.callsTo(RESET)[0].body).toMatchObject({
      second_factor: { method: 'webauthn', response: assertion },
    });
  });

  it('speaks Chinese at the factor step', async () => {
    const view = await show(TICKET, 'zh_CN');
    await act(async () => view.store.chooseAccount('ann'));
    await act(async () => view.store.confirmAccount('pass-1'));
    await act(async () => view.store.sendCode());
    await act(async () => view.store.verifyCode('123456'));
    expect(await screen.findByText('你的账号已开启两步验证，设置新密码前请先确认身份。')).toBeTruthy();
    expect(screen.getByLabelText('验证码')).toBeTruthy();
    expect(screen.getByRole('button', { name: '使用通行密钥或安全密钥' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '使用恢复码' })).toBeTruthy();
  });
});
