import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { SliderPuzzle } from '../../../schemas/captcha';
import type { SliderAnswer } from '../../../schemas/captcha-rules';
import { fakeBackend, ok, serviceError, type FakeRequest, type FakeRoute } from '../../../tests/kit/fake-backend';
import { renderWithCore } from '../../../tests/kit/web';
import { decryptCaptchaValue } from './crypto';
import { SliderCaptcha, type SliderCaptchaProps } from './SliderCaptcha';
import { thinTrack } from './slider';

const PUZZLE_PATH = 'POST /users/ajax/users/:username/sliderCaptcha';
const VERIFY_PATH = 'POST /users/ajax/users/:username/sliderCaptcha:verify';
const DAY = Date.parse('2024-03-05T10:00:00Z');
const PNG = 'data:image/png;base64,iVBORw0KGgo=';

/** A clock that moves 150 ms every time it is read, so key presses and drags take plausible time. */
function steppingClock(step = 150) {
  let now = DAY;
  return () => (now += step);
}

function puzzle(id: string): SliderPuzzle {
  return {
    captcha_id: id,
    background: PNG,
    piece: PNG,
    width: 320,
    height: 160,
    piece_size: 56,
    piece_y: 40,
    expires_at: DAY + 300_000,
  };
}

/** Puzzles named p1, p2… in order; answers decrypted with the day key so tests see what the service would read. */
function captchaBackend(verify: FakeRoute = ok({ pass: 'pass-1', expires_at: DAY + 120_000 })) {
  let n = 0;
  const answers: SliderAnswer[] = [];
  const backend = fakeBackend({
    [PUZZLE_PATH]: () => ok(puzzle(`p${++n}`)),
    [VERIFY_PATH]: (req: FakeRequest) => {
      const { data } = req.body as { data: string };
      answers.push(JSON.parse(decryptCaptchaValue(data, DAY)) as SliderAnswer);
      return typeof verify === 'function' ? verify(req) : verify;
    },
  });
  return { backend, answers };
}

async function show(
  backend: ReturnType<typeof fakeBackend>,
  props: Partial<SliderCaptchaProps> = {},
  locale: 'en_US' | 'zh_CN' = 'en_US',
) {
  const onPass = vi.fn();
  const clock = steppingClock();
  const view = await renderWithCore(
    <SliderCaptcha username="ann smith" scene="login" onPass={onPass} clock={clock} {...props} />,
    { backend, user: null, locale },
  );
  return { ...view, onPass };
}

const handle = () => screen.getByRole('slider', { name: 'Drag the slider to fit the piece into the gap' });

function press(key: string, shiftKey = false) {
  fireEvent.keyDown(handle(), { key, shiftKey });
}

describe('slider captcha', () => {
  it('loads a puzzle for the name and offers an accessible, focusable slider', async () => {
    const { backend, answers } = captchaBackend();
    await show(backend);
    await screen.findByRole('slider');
    expect(backend.callsTo(PUZZLE_PATH).map((c) => [c.path, c.body])).toEqual([
      ['/users/ajax/users/ann%20smith/sliderCaptcha', { scene: 'login' }],
    ]);
    const h = handle();
    expect(h.getAttribute('tabindex')).toBe('0');
    expect(h.getAttribute('aria-valuemin')).toBe('0');
    expect(h.getAttribute('aria-valuemax')).toBe('264');
    expect(h.getAttribute('aria-valuenow')).toBe('0');
    expect(screen.getByRole('button', { name: 'Load a new puzzle' })).toBeTruthy();
    expect(screen.getByTestId('slider-captcha-piece').getAttribute('style')).toContain('left: 0%');
    expect(answers).toEqual([]);
  });

  it('has its name in Chinese too', async () => {
    const { backend } = captchaBackend();
    await show(backend, {}, 'zh_CN');
    expect(await screen.findByRole('slider', { name: '拖动滑块，使拼图嵌入缺口' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '换一张' })).toBeTruthy();
  });

  it('moves with the keyboard and sends a keyboard answer the service can decrypt', async () => {
    const { backend, answers } = captchaBackend();
    const { onPass } = await show(backend);
    await screen.findByRole('slider');
    for (let i = 0; i < 5; i++) press('ArrowRight', true);
    press('ArrowRight');
    press('ArrowRight');
    press('ArrowLeft');
    expect(handle().getAttribute('aria-valuenow')).toBe('51');
    press('End');
    expect(handle().getAttribute('aria-valuenow')).toBe('264');
    press('Home');
    press('ArrowRight', true);
    press('ArrowRight', true);
    expect(handle().getAttribute('aria-valuenow')).toBe('20');
    await act(async () => press('Enter'));
    await waitFor(() => expect(onPass).toHaveBeenCalledWith('pass-1'));

    expect(answers).toHaveLength(1);
    const [answer] = answers;
    expect(answer.kind).toBe('keyboard');
    expect(answer.x).toBe(20);
    expect(answer.umid).toMatch(/^[0-9a-f]{64}$/);
    // The last point is the Enter that confirmed the answer (the service reads the pause before it).
    expect(answer.track.map(([x]) => x)).toEqual([10, 20, 30, 40, 50, 51, 52, 51, 264, 0, 10, 20, 20]);
    expect(answer.track.at(-1)![2]).toBeGreaterThan(answer.track.at(-2)![2]);
    expect(answer.track.every(([, y]) => y === 0)).toBe(true);
    expect(answer.track[0][2]).toBe(0);
    expect(answer.track.at(-1)![2]).toBeGreaterThanOrEqual(400);
    expect(backend.callsTo(VERIFY_PATH)[0].body).toMatchObject({ captcha_id: 'p1' });
    expect(screen.getByTestId('slider-captcha-message').textContent).toBe('Verified');
    expect(handle().getAttribute('aria-disabled')).toBe('true');
    // Once passed, the handle no longer moves.
    press('ArrowRight');
    expect(handle().getAttribute('aria-valuenow')).toBe('20');
  });

  it('records a pointer drag in puzzle pixels (scaled widget) and submits on release', async () => {
    const { backend, answers } = captchaBackend();
    const { onPass } = await show(backend);
    await screen.findByRole('slider');
    // Drawn at half size on a narrow window: one screen pixel is two puzzle pixels.
    vi.spyOn(screen.getByTestId('slider-captcha'), 'getBoundingClientRect').mockReturnValue({
      width: 160,
    } as DOMRect);
    const h = handle();
    fireEvent.pointerDown(h, { pointerId: 7, clientX: 100, clientY: 300, button: 0, pointerType: 'mouse' });
    for (let i = 1; i <= 12; i++)
      fireEvent.pointerMove(h, { pointerId: 7, clientX: 100 + i * 5, clientY: 300 + (i % 3) - 1 });
    expect(h.getAttribute('aria-valuenow')).toBe('120');
    await act(async () => {
      fireEvent.pointerUp(h, { pointerId: 7, clientX: 161, clientY: 301 });
    });
    await waitFor(() => expect(onPass).toHaveBeenCalledWith('pass-1'));
    const [answer] = answers;
    expect(answer.kind).toBe('pointer');
    expect(answer.x).toBe(122);
    expect(answer.track).toHaveLength(14);
    expect(answer.track[0]).toEqual([0, 0, 0]);
    expect(answer.track.at(-1)).toEqual([122, 2, expect.any(Number)]);
    expect(new Set(answer.track.map(([, y]) => y)).size).toBeGreaterThan(1);
    const times = answer.track.map(([, , t]) => t);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times.at(-1)).toBeGreaterThanOrEqual(300);
  });

  it('a click without a drag sends nothing', async () => {
    const { backend } = captchaBackend();
    await show(backend);
    const h = await screen.findByRole('slider');
    fireEvent.pointerDown(h, { pointerId: 1, clientX: 10, clientY: 10, button: 0, pointerType: 'mouse' });
    fireEvent.pointerUp(h, { pointerId: 1, clientX: 10, clientY: 10 });
    press('Enter');
    await act(async () => {});
    expect(backend.callsTo(VERIFY_PATH)).toHaveLength(0);
  });

  it('after a refused answer shows the message and lets the user retry the same puzzle from the start', async () => {
    let tries = 0;
    const { backend, answers } = captchaBackend(() =>
      ++tries === 1
        ? serviceError(400, 'CaptchaFailed', 'Verification failed, 4 tries left')
        : ok({ pass: 'pass-2', expires_at: DAY }),
    );
    const { onPass } = await show(backend);
    await screen.findByRole('slider');
    for (const k of ['ArrowRight', 'ArrowRight', 'ArrowRight']) press(k, true);
    await act(async () => press('Enter'));
    expect(await screen.findByText('Verification failed, 4 tries left')).toBeTruthy();
    expect(handle().getAttribute('aria-valuenow')).toBe('0');
    expect(handle().getAttribute('aria-disabled')).toBeNull();
    expect(onPass).not.toHaveBeenCalled();

    for (const k of ['ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowRight']) press(k, true);
    await act(async () => press('Enter'));
    await waitFor(() => expect(onPass).toHaveBeenCalledWith('pass-2'));
    expect(backend.callsTo(PUZZLE_PATH)).toHaveLength(1);
    expect(backend.callsTo(VERIFY_PATH).map((c) => (c.body as { captcha_id: string }).captcha_id)).toEqual([
      'p1',
      'p1',
    ]);
    // The second answer starts its own track: the refused one is not carried over.
    expect(answers[1].track.map(([x]) => x)).toEqual([10, 20, 30, 40, 40]);
  });

  it('loads a new puzzle by itself when the old one expired', async () => {
    let tries = 0;
    const { backend } = captchaBackend(() =>
      ++tries === 1 ? serviceError(410, 'CaptchaExpired', 'gone') : ok({ pass: 'pass-3', expires_at: DAY }),
    );
    const { onPass } = await show(backend);
    await screen.findByRole('slider');
    for (const k of ['ArrowRight', 'ArrowRight', 'ArrowRight']) press(k);
    await act(async () => press('Enter'));
    await waitFor(() => expect(backend.callsTo(PUZZLE_PATH)).toHaveLength(2));
    expect(await screen.findByText('The puzzle expired, here is a new one')).toBeTruthy();
    await waitFor(() => expect(handle().getAttribute('aria-disabled')).toBeNull());
    for (const k of ['ArrowRight', 'ArrowRight', 'ArrowRight']) press(k);
    await act(async () => press('Enter'));
    await waitFor(() => expect(onPass).toHaveBeenCalledWith('pass-3'));
    expect((backend.callsTo(VERIFY_PATH)[1].body as { captcha_id: string }).captcha_id).toBe('p2');
  });

  it('swaps an untouched puzzle for a fresh one before its one-minute answer window closes', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const { backend } = captchaBackend();
      await show(backend);
      await screen.findByRole('slider');
      expect(screen.getByTestId('slider-captcha-message').textContent).toBe(
        "Only the gap whose dark knobs sit on the same sides as the piece's fits.",
      );
      await act(async () => {
        vi.advanceTimersByTime(50_000);
      });
      expect(backend.callsTo(PUZZLE_PATH)).toHaveLength(1);
      await act(async () => {
        vi.advanceTimersByTime(6_000);
      });
      await waitFor(() => expect(backend.callsTo(PUZZLE_PATH)).toHaveLength(2));
      // No message: nothing went wrong from the person's side.
      await waitFor(() => expect(handle().getAttribute('aria-disabled')).toBeNull());
      expect(screen.queryByText('The puzzle expired, here is a new one')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('the refresh button and a new reset key load a new puzzle', async () => {
    const { backend } = captchaBackend();
    let bump = () => {};
    function Harness() {
      const [key, setKey] = useState(0);
      bump = () => setKey((k) => k + 1);
      return <SliderCaptcha username="ann" scene="recovery" onPass={() => {}} resetKey={key} />;
    }
    await renderWithCore(<Harness />, { backend, user: null });
    await screen.findByRole('slider');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Load a new puzzle' })));
    await waitFor(() => expect(backend.callsTo(PUZZLE_PATH)).toHaveLength(2));
    await act(async () => bump());
    await waitFor(() => expect(backend.callsTo(PUZZLE_PATH)).toHaveLength(3));
    expect(backend.callsTo(PUZZLE_PATH)[2].body).toEqual({ scene: 'recovery' });
  });

  it('says so when no puzzle can be had, and the refresh button tries again', async () => {
    let n = 0;
    const backend = fakeBackend({
      [PUZZLE_PATH]: () => (++n === 1 ? serviceError(429, 'TooManyRequestsMinute', 'slow down') : ok(puzzle('p2'))),
    });
    await show(backend);
    expect(await screen.findByText('Too many requests, please try again in one minute')).toBeTruthy();
    expect(screen.queryByRole('slider')).toBeNull();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Load a new puzzle' })));
    expect(await screen.findByRole('slider')).toBeTruthy();
  });
});

describe('track thinning', () => {
  it('keeps the first and last points and at most the limit', () => {
    const pts = Array.from({ length: 1000 }, (_, i) => [i, 0, i] as [number, number, number]);
    const out = thinTrack(pts, 600);
    expect(out).toHaveLength(600);
    expect(out[0]).toEqual([0, 0, 0]);
    expect(out.at(-1)).toEqual([999, 0, 999]);
    expect(thinTrack(pts.slice(0, 5), 600)).toHaveLength(5);
  });
});
