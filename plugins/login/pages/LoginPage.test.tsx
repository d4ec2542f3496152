import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeBackend, ok, serviceError } from '../../../tests/kit/fake-backend';
import { renderWithCore, TEST_USER } from '../../../tests/kit/web';
import LoginPage from './LoginPage';

afterEach(cleanup);

const PUZZLE = {
  background: 'data:image/png;base64,iVBORw0KGgo=',
  piece: 'data:image/png;base64,iVBORw0KGgo=',
  width: 320,
  height: 160,
  piece_size: 56,
  piece_y: 30,
  expires_at: Date.now() + 300_000,
};

function backendFor(needCaptcha: boolean) {
  let puzzles = 0;
  let passes = 0;
  return fakeBackend({
    'POST /users/ajax/login': (req) =>
      (req.body as { password: string }).password === 'Right@pass1'
        ? ok({ user: TEST_USER, must_change_password: true, csrf_token: 'csrf-1' })
        : serviceError(401, 'AccountOrPasswordIncorrect', 'Account or password incorrect.'),
    'GET /users/ajax/users/:username/check': ok({ locked: false, need_captcha: needCaptcha }),
    'POST /users/ajax/users/:username/sliderCaptcha': () => ok({ ...PUZZLE, captcha_id: `p${++puzzles}` }),
    'POST /users/ajax/users/:username/sliderCaptcha:verify': () => ok({ pass: `pass-${++passes}`, expires_at: 0 }),
  });
}

async function submit(username: string, password: string) {
  await screen.findByLabelText('Account');
  fireEvent.change(document.getElementById('username')!, { target: { value: username } });
  fireEvent.change(document.getElementById('password')!, { target: { value: password } });
  await act(async () => fireEvent.click(screen.getByRole('button', { name: /Sign in$/ })));
}

async function solveSlider() {
  const handle = screen.getByRole('slider', { name: 'Drag the slider to fit the piece into the gap' });
  await waitFor(() => expect(handle.getAttribute('aria-disabled')).toBeNull());
  for (let i = 0; i < 3; i++) fireEvent.keyDown(handle, { key: 'ArrowRight', shiftKey: true });
  await act(async () => fireEvent.keyDown(handle, { key: 'Enter' }));
  await waitFor(() => expect(screen.getByTestId('slider-captcha-message').textContent).toBe('Verified'));
}

describe('login page', () => {
  it('after a refused password without need_captcha shows the message and no slider', async () => {
    const backend = backendFor(false);
    await renderWithCore(<LoginPage />, { backend, user: null, route: '/users/login' });
    await submit('ann', 'wrong');
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('Account or password incorrect');
    await waitFor(() => expect(backend.callsTo('GET /users/ajax/users/:username/check')).toHaveLength(1));
    expect(screen.queryByRole('slider')).toBeNull();
  });

  it('shows the slider inline when the service asks; the pass goes with the next sign-in only', async () => {
    const backend = backendFor(true);
    await renderWithCore(<LoginPage />, { backend, user: null, route: '/users/login' });
    await submit('ann', 'wrong');
    await screen.findByRole('slider');
    expect(backend.callsTo('POST /users/ajax/users/:username/sliderCaptcha')[0].body).toEqual({ scene: 'login' });
    // The slider sits above the submit button.
    const slider = screen.getByTestId('slider-captcha');
    const button = screen.getByRole('button', { name: /Sign in$/ });
    expect(slider.compareDocumentPosition(button) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    await submit('ann', 'wrong');
    expect(screen.getByRole('alert').textContent).toContain('Please complete the slider verification');
    expect(backend.callsTo('POST /users/ajax/login')).toHaveLength(1);

    await solveSlider();
    await submit('ann', 'wrong');
    expect(backend.callsTo('POST /users/ajax/login')[1].body).toMatchObject({ captcha_pass: 'pass-1' });
    // Spent: a fresh puzzle for the next try.
    await waitFor(() => expect(backend.callsTo('POST /users/ajax/users/:username/sliderCaptcha')).toHaveLength(2));
    await solveSlider();
    await submit('ann', 'Right@pass1');
    expect(backend.callsTo('POST /users/ajax/login')[2].body).toMatchObject({ captcha_pass: 'pass-2' });
    // The flagged account goes on to the forced change, on the shared new-password form.
    expect(await screen.findByText('Change password')).toBeTruthy();
    expect(document.getElementById('confirm')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Change and continue' })).toBeTruthy();
  });
});
