import { ArrowRightOutlined, CheckOutlined, LoadingOutlined, ReloadOutlined } from '@ant-design/icons';
import { Button, theme } from 'antd';
import { useCallback, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useIntl } from 'react-intl';
import type { SliderPuzzle } from '../../../schemas/captcha';
import {
  SLIDER_HEIGHT,
  SLIDER_PUZZLE_TTL_MS,
  SLIDER_TRACK_MAX_POINTS,
  SLIDER_WIDTH,
  type SliderAnswer,
} from '../../../schemas/captcha-rules';
import { errorCodeOf, type RequestError } from '../request/errors';
import { failureOf, failureText, type Failure } from '../stores/failure';
import { useStores } from '../stores/root';
import { captchaApi, type SliderScene } from './api';
import type { Clock } from './crypto';
import { clampX, keyStep, scaleOf, thinTrack, type TrackPoint } from './slider';

/** Props of the slider captcha. */
export interface SliderCaptchaProps {
  /** The account the pass will be bound to; the puzzle is asked for this name. */
  username: string;
  /** Why the slider is shown (sign-in or password recovery). */
  scene: SliderScene;
  /** Receives the single-use pass once the service accepted the answer. */
  onPass: (pass: string) => void;
  /** Changing it loads a fresh puzzle (e.g. after the pass was spent and another one is needed). */
  resetKey?: unknown;
  /** The clock of the trajectory times and of the day key; Date.now unless a test injects one. */
  clock?: Clock;
}

/** Codes the widget explains in the core catalogue. */
const CAPTCHA_ERROR_MESSAGES = {
  CaptchaExpired: 'core.captcha.expired',
  TooManyRequestsMinute: 'core.captcha.tooMany',
  TooManyRequests: 'core.captcha.tooMany',
} as const;

/** A refused answer: the service's own text (it counts the tries left), else the catalogue's. */
function verifyFailure(error: RequestError): Failure | undefined {
  if (errorCodeOf(error) === 'CaptchaFailed') {
    const message = (error.data as { message?: unknown } | undefined)?.message;
    return typeof message === 'string' && message ? { text: message } : { id: 'core.captcha.failed' };
  }
  return failureOf(error, CAPTCHA_ERROR_MESSAGES, 'core.captcha.network');
}

type Status = 'loading' | 'ready' | 'verifying' | 'passed' | 'error';

interface Drag {
  pointerId: number;
  startX: number;
  startY: number;
  x0: number;
  t0: number;
  scale: number;
  points: TrackPoint[];
}

const TRACK_HEIGHT = 40;
/** A puzzle is swapped for a fresh one this long (ms) before the service stops taking answers to it. */
const REFRESH_MARGIN_MS = 5000;
// At least 4.5:1 contrast: the handle's white text on these, in either shade; the status line on the page, each shade.
const ERROR_COLOR = '#a8071a';
const SUCCESS_COLOR = '#135200';
const ERROR_TEXT = 'light-dark(#a8071a, #ff7875)';
const SUCCESS_TEXT = 'light-dark(#135200, #95de64)';
const MUTED_TEXT = 'var(--ant-color-text-secondary)';

/** Loads the crypto and fingerprint code only when an answer is sent, so they stay out of the page's chunk. */
async function encryptAnswer(answer: Omit<SliderAnswer, 'umid'>, clock: Clock): Promise<string> {
  const [{ encryptCaptchaValue }, { getUmidToken }] = await Promise.all([
    import(/* webpackChunkName: "core-captcha" */ './crypto'),
    import(/* webpackChunkName: "core-captcha" */ './fingerprint'),
  ]);
  return encryptCaptchaValue({ ...answer, umid: getUmidToken() } satisfies SliderAnswer, clock);
}

/**
 * The service-verified slider puzzle: drag (or move with the keyboard) the piece into the gap. The answer — the drop
 * position and how it got there — goes encrypted to the service, which returns a single-use pass for `username`.
 * Shown at the service's size on wide windows and scaled down to the available width on narrow ones.
 */
export function SliderCaptcha({ username, scene, onPass, resetKey, clock = Date.now }: SliderCaptchaProps) {
  const intl = useIntl();
  const { client } = useStores();
  const { token } = theme.useToken();
  const api = useMemo(() => captchaApi(client), [client]);
  const [puzzle, setPuzzle] = useState<SliderPuzzle | null>(null);
  const [status, setStatus] = useState<Status>('loading');
  const [failure, setFailure] = useState<Failure | null>(null);
  const [x, setX] = useState(0);
  const [focused, setFocused] = useState(false);
  const boxRef = useRef<HTMLDivElement>(null);
  const drag = useRef<Drag | null>(null);
  const keys = useRef<{ t0: number; points: TrackPoint[] } | null>(null);
  // When the shown puzzle arrived (the component's clock), to swap it before its answer window closes.
  const loadedAt = useRef(0);
  // Answers to an older puzzle or an older render are dropped (the name changed, the user refreshed…).
  const round = useRef(0);
  const onPassRef = useRef(onPass);
  onPassRef.current = onPass;
  const hintId = useId();

  const load = useCallback(
    async (keep: Failure | null = null) => {
      const mine = ++round.current;
      drag.current = null;
      keys.current = null;
      setStatus('loading');
      setFailure(keep);
      setX(0);
      const [error, next] = await api.puzzle(username, scene);
      if (mine !== round.current) return;
      if (error) {
        setPuzzle(null);
        setStatus('error');
        setFailure(failureOf(error, CAPTCHA_ERROR_MESSAGES, 'core.captcha.loadFailed') ?? null);
        return;
      }
      loadedAt.current = clock();
      setPuzzle(next);
      setStatus('ready');
    },
    [api, username, scene, clock],
  );

  useEffect(() => {
    if (username) void load();
    return () => {
      round.current++;
    };
  }, [load, username, resetKey]);

  // A puzzle's answer window is short: an untouched one is swapped quietly before it closes.
  useEffect(() => {
    if (status !== 'ready' || !puzzle) return;
    const left = loadedAt.current + SLIDER_PUZZLE_TTL_MS - REFRESH_MARGIN_MS - clock();
    const timer = setTimeout(
      () => {
        if (!drag.current && !keys.current) void load();
      },
      Math.max(0, left),
    );
    return () => clearTimeout(timer);
  }, [status, puzzle, load, clock]);

  const max = puzzle ? Math.max(0, puzzle.width - puzzle.piece_size) : 0;
  const active = status === 'ready' && !!puzzle;

  const submit = async (kind: SliderAnswer['kind'], finalX: number, points: TrackPoint[]) => {
    if (!puzzle) return;
    const mine = round.current;
    setStatus('verifying');
    setFailure(null);
    let data: string;
    try {
      data = await encryptAnswer({ x: finalX, track: thinTrack(points, SLIDER_TRACK_MAX_POINTS), kind }, clock);
    } catch {
      // the crypto chunk did not load (offline, new deployment): nothing was sent, the same puzzle stays
      if (mine !== round.current) return;
      keys.current = null;
      setX(0);
      setStatus('ready');
      setFailure({ id: 'core.captcha.network' });
      return;
    }
    const [error, result] = await api.verify(username, puzzle.captcha_id, data);
    if (mine !== round.current) return;
    if (!error) {
      setStatus('passed');
      onPassRef.current(result.pass);
      return;
    }
    if (errorCodeOf(error) === 'CaptchaExpired') {
      void load({ id: 'core.captcha.expired' });
      return;
    }
    // Wrong place, implausible drag, too many requests or a network failure: the same puzzle, from the start.
    drag.current = null;
    keys.current = null;
    setX(0);
    setStatus('ready');
    setFailure(verifyFailure(error) ?? null);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (!active) return;
    if (e.key === 'Enter') {
      e.preventDefault();
      const k = keys.current;
      // The answer's last point is this Enter: the service reads the pause before it (a person looks first).
      if (k && k.points.length > 0) void submit('keyboard', x, [...k.points, [x, 0, clock() - k.t0]]);
      return;
    }
    let next: number;
    if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = max;
    else {
      const step = keyStep(e.key, e.shiftKey);
      if (!step) return;
      next = clampX(x + step, max);
    }
    e.preventDefault();
    const now = clock();
    keys.current ??= { t0: now, points: [] };
    keys.current.points.push([next, 0, now - keys.current.t0]);
    setFailure(null);
    setX(next);
  };

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (!active || !puzzle || (e.pointerType === 'mouse' && e.button !== 0)) return;
    e.preventDefault();
    try {
      e.currentTarget.setPointerCapture(e.pointerId);
    } catch {
      // capture is a convenience: without it the drag still works while the pointer stays on the handle
    }
    keys.current = null;
    const scale = scaleOf(boxRef.current?.getBoundingClientRect().width ?? 0, puzzle.width);
    drag.current = {
      pointerId: e.pointerId,
      startX: e.clientX,
      startY: e.clientY,
      x0: x,
      t0: clock(),
      scale,
      points: [[x, 0, 0]],
    };
    setFailure(null);
  };

  const pointAt = (d: Drag, e: PointerEvent<HTMLDivElement>): TrackPoint => {
    const nextX = clampX(d.x0 + (e.clientX - d.startX) / d.scale, max);
    const y = Math.round(((e.clientY - d.startY) / d.scale) * 10) / 10;
    return [nextX, y, Math.max(0, clock() - d.t0)];
  };

  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d || d.pointerId !== e.pointerId) return;
    const p = pointAt(d, e);
    d.points.push(p);
    setX(p[0]);
  };

  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d || d.pointerId !== e.pointerId) return;
    drag.current = null;
    const p = pointAt(d, e);
    d.points.push(p);
    setX(p[0]);
    // A click without a drag is not an answer: it would only spend one of the puzzle's tries.
    if (d.points.every(([px]) => px === d.x0)) return;
    void submit('pointer', p[0], d.points);
  };

  const onPointerCancel = (e: PointerEvent<HTMLDivElement>) => {
    if (drag.current?.pointerId !== e.pointerId) return;
    drag.current = null;
    setX(0);
  };

  const width = puzzle?.width ?? SLIDER_WIDTH;
  const height = puzzle?.height ?? SLIDER_HEIGHT;
  const pieceSize = puzzle?.piece_size ?? 0;
  const pct = (v: number) => `${(v / width) * 100}%`;
  const passed = status === 'passed';
  const label = intl.formatMessage({ id: 'core.captcha.label' });
  const message = failure ? failureText(failure, (id) => intl.formatMessage({ id })) : null;
  const statusText =
    status === 'loading'
      ? intl.formatMessage({ id: 'core.captcha.loading' })
      : status === 'verifying'
        ? intl.formatMessage({ id: 'core.captcha.verifying' })
        : passed
          ? intl.formatMessage({ id: 'core.captcha.verified' })
          : status === 'ready'
            ? intl.formatMessage({ id: 'core.captcha.shapeHint' })
            : null;
  const handleColor = passed ? SUCCESS_COLOR : failure && status === 'ready' ? ERROR_COLOR : token.colorPrimary;

  return (
    <div
      ref={boxRef}
      role="group"
      aria-label={intl.formatMessage({ id: 'core.captcha.title' })}
      data-testid="slider-captcha"
      data-status={status}
      style={{ width: '100%', maxWidth: width, userSelect: 'none' }}
    >
      <div
        style={{
          position: 'relative',
          width: '100%',
          aspectRatio: `${width} / ${height}`,
          background: 'var(--ant-color-fill-tertiary)',
          borderRadius: 4,
          overflow: 'hidden',
        }}
      >
        {puzzle && (
          <>
            <img
              src={puzzle.background}
              alt=""
              draggable={false}
              style={{ display: 'block', width: '100%', height: '100%' }}
            />
            <img
              src={puzzle.piece}
              alt=""
              draggable={false}
              data-testid="slider-captcha-piece"
              style={{
                position: 'absolute',
                left: pct(x),
                top: `${(puzzle.piece_y / height) * 100}%`,
                width: pct(pieceSize),
                height: `${(pieceSize / height) * 100}%`,
                pointerEvents: 'none',
              }}
            />
          </>
        )}
        {(status === 'loading' || status === 'verifying') && (
          <div
            style={{
              position: 'absolute',
              inset: 0,
              display: 'grid',
              placeItems: 'center',
              background: 'rgba(255, 255, 255, 0.6)',
              fontSize: 24,
              color: MUTED_TEXT,
            }}
          >
            <LoadingOutlined />
          </div>
        )}
        <Button
          size="small"
          shape="circle"
          icon={<ReloadOutlined />}
          aria-label={intl.formatMessage({ id: 'core.captcha.refresh' })}
          title={intl.formatMessage({ id: 'core.captcha.refresh' })}
          disabled={status === 'loading' || status === 'verifying'}
          onClick={() => void load()}
          style={{ position: 'absolute', top: 6, right: 6 }}
        />
      </div>
      <div
        style={{
          position: 'relative',
          height: TRACK_HEIGHT,
          marginTop: 8,
          background: 'var(--ant-color-fill-tertiary)',
          border: '1px solid var(--ant-color-border)',
          borderRadius: 4,
          boxSizing: 'border-box',
        }}
      >
        <div
          aria-hidden
          style={{
            position: 'absolute',
            inset: 0,
            display: 'grid',
            placeItems: 'center',
            padding: '0 8px',
            color: MUTED_TEXT,
            fontSize: 13,
            lineHeight: 1.2,
            textAlign: 'center',
            paddingLeft: pct(pieceSize),
            // The hint gives way once the handle moves, so the piece's path stays clear.
            opacity: x > 0 ? 0 : 1,
            transition: 'opacity 0.2s',
          }}
        >
          {label}
        </div>
        {puzzle && (
          <div
            role="slider"
            tabIndex={0}
            aria-label={label}
            aria-describedby={hintId}
            aria-valuemin={0}
            aria-valuemax={max}
            aria-valuenow={x}
            aria-disabled={!active || undefined}
            data-testid="slider-captcha-handle"
            onKeyDown={onKeyDown}
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerUp}
            onPointerCancel={onPointerCancel}
            onFocus={() => setFocused(true)}
            onBlur={() => setFocused(false)}
            style={{
              position: 'absolute',
              top: -1,
              bottom: -1,
              left: pct(x),
              width: pct(pieceSize),
              display: 'grid',
              placeItems: 'center',
              background: handleColor,
              color: '#fff',
              borderRadius: 4,
              cursor: active ? 'grab' : 'default',
              touchAction: 'none',
              outlineOffset: 2,
            }}
          >
            {passed ? <CheckOutlined /> : <ArrowRightOutlined />}
          </div>
        )}
      </div>
      <div
        id={hintId}
        style={
          focused && active
            ? { marginTop: 4, fontSize: 12, color: MUTED_TEXT }
            : { position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }
        }
      >
        {intl.formatMessage({ id: 'core.captcha.keyboardHint' })}
      </div>
      <div
        role="status"
        aria-live="polite"
        data-testid="slider-captcha-message"
        style={{
          minHeight: 22,
          marginTop: 4,
          fontSize: 13,
          color: message ? ERROR_TEXT : passed ? SUCCESS_TEXT : MUTED_TEXT,
        }}
      >
        {message ?? statusText}
      </div>
    </div>
  );
}
