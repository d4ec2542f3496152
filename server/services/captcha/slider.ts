import { sql, type Kysely } from 'kysely';
import type { Clock } from '../../clock';
import type { DB } from '../../db/schema';
import { randomSecret, sha256 } from '../../auth/random';
import {
  SLIDER_HEIGHT,
  SLIDER_MAX_TRIES,
  SLIDER_PASS_TTL_MS,
  SLIDER_PIECE_SIZE,
  SLIDER_PUZZLE_TTL_MS,
  SLIDER_TOLERANCE_PX,
  SLIDER_TRACK_MAX_POINTS,
  SLIDER_WIDTH,
  type SliderAnswer,
} from '../../../schemas/captcha-rules';
import type { SliderPass, SliderPuzzle } from '../../../schemas/captcha';
import { decryptDayKeyed } from './day-key';
import { drawPuzzle } from './puzzle-image';

/** The least a pointer drag takes (ms) and the fewest points it has. */
export const POINTER_MIN_MS = 300;
export const POINTER_MIN_POINTS = 8;
/** A drag starts from rest: over its first ONSET_MS the piece moves at most ONSET_SHARE of the peak speed. */
export const ONSET_MS = 60;
export const ONSET_SHARE = 0.5;
/** A correction: the piece goes back at least this far (px) — an overshoot and return, or a fine adjustment. */
export const CORRECTION_PX = 2;
/** A hold: the piece rests (±1 px) where it is dropped at least this long (ms) before the release. */
export const HOLD_MS = 150;
/** A stop: at least this long (ms) within ±1 px in the middle of a drag, with more movement after it. */
export const STOP_MS = 100;
/** The fewest move presses of a keyboard answer, the least time from the first to the confirming Enter (ms). */
export const KEYBOARD_MIN_POINTS = 3;
export const KEYBOARD_MIN_MS = 800;
/** A person looks before confirming: the Enter comes at least this long (ms) after the last move. */
export const KEYBOARD_CONFIRM_MS = 250;
/** Presses closer than this (ms) are no person's; move presses must not all come at the same pace (max/min gap). */
export const KEYBOARD_MIN_GAP_MS = 15;
export const KEYBOARD_RHYTHM_RATIO = 1.1;

/** Why an answer was refused, or that it is right. */
export type AnswerVerdict = 'ok' | 'unreadable' | 'wrongPlace' | 'implausible';

/** The key every captcha row uses for a name: lower-cased, like the lockout's. */
export const captchaSubject = (username: string) => username.toLowerCase();

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Parses a decrypted answer, refusing anything not shaped like `SliderAnswer`. */
export function parseAnswer(text: string): SliderAnswer | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (!v || typeof v !== 'object') return null;
  const a = v as Record<string, unknown>;
  if (!finite(a.x) || (a.kind !== 'pointer' && a.kind !== 'keyboard') || typeof a.umid !== 'string') return null;
  if (a.umid.length < 8 || a.umid.length > 128) return null;
  if (!Array.isArray(a.track) || a.track.length > SLIDER_TRACK_MAX_POINTS) return null;
  for (const p of a.track) {
    if (!Array.isArray(p) || p.length !== 3 || !p.every(finite)) return null;
  }
  return a as unknown as SliderAnswer;
}

type Track = SliderAnswer['track'];

/** Where the piece is at time `t` of a track (linear between points). */
function xAt(track: Track, t: number): number {
  if (t <= track[0][2]) return track[0][0];
  for (let i = 1; i < track.length; i++) {
    const [x1, , t1] = track[i];
    if (t1 < t) continue;
    const [x0, , t0] = track[i - 1];
    return t1 === t0 ? x1 : x0 + ((x1 - x0) * (t - t0)) / (t1 - t0);
  }
  return track[track.length - 1][0];
}

/**
 * Whether a drag starts from rest, as a hand does: the distance covered in its first ONSET_MS is at most ONSET_SHARE
 * of what the peak speed (measured over 40 ms steps) would cover. An eased-out drag starts at its top speed.
 */
export function startsFromRest(track: Track): boolean {
  const t0 = track[0][2];
  const end = track[track.length - 1][2];
  let peak = 0;
  for (let t = t0; t + 40 <= end; t += 10) peak = Math.max(peak, Math.abs(xAt(track, t + 40) - xAt(track, t)) / 40);
  const onset = Math.abs(xAt(track, t0 + ONSET_MS) - track[0][0]) / ONSET_MS;
  return peak > 0 && onset <= ONSET_SHARE * peak;
}

/** Whether the piece ever goes back CORRECTION_PX or more against the way it was going (overshoot, adjustment). */
export function hasCorrection(track: Track): boolean {
  let max = track[0][0];
  for (const [x] of track) {
    if (x > max) max = x;
    if (max - x >= CORRECTION_PX) return true;
  }
  return false;
}

/** Whether the piece rests within ±1 px of where it is dropped for HOLD_MS or more before the release. */
export function holdsBeforeRelease(track: Track): boolean {
  const last = track[track.length - 1];
  let since = last[2];
  for (let i = track.length - 1; i >= 0 && Math.abs(track[i][0] - last[0]) <= 1; i--) since = track[i][2];
  return last[2] - since >= HOLD_MS;
}

/** Whether the drag stops (±1 px for STOP_MS or more) after moving 10 px, then moves 3 px or more again. */
export function stopsMidway(track: Track): boolean {
  const start = track[0][0];
  for (let i = 0; i < track.length; i++) {
    if (Math.abs(track[i][0] - start) < 10) continue;
    let j = i;
    while (j + 1 < track.length && Math.abs(track[j + 1][0] - track[i][0]) <= 1) j++;
    const after = track.slice(j + 1).some(([x]) => Math.abs(x - track[i][0]) >= 3);
    if (track[j][2] - track[i][2] >= STOP_MS && after) return true;
  }
  return false;
}

/** Whether a keyboard answer has a person's rhythm: a pause before the confirming Enter, uneven move presses. */
export function keyboardRhythm(track: Track): boolean {
  const moves = track.slice(0, -1);
  const confirm = track[track.length - 1];
  if (moves.length < KEYBOARD_MIN_POINTS) return false;
  if (confirm[2] - track[0][2] < KEYBOARD_MIN_MS) return false;
  if (confirm[2] - moves[moves.length - 1][2] < KEYBOARD_CONFIRM_MS) return false;
  const gaps = moves.slice(1).map((p, i) => p[2] - moves[i][2]);
  if (gaps.some((g) => g < KEYBOARD_MIN_GAP_MS)) return false;
  return Math.max(...gaps) >= KEYBOARD_RHYTHM_RATIO * Math.min(...gaps);
}

/**
 * Judges an answer against the gap: the drop within the tolerance and a trajectory a person makes. A pointer drag
 * lasts ≥ 300 ms over ≥ 8 points with time moving forward, some vertical wobble and an uneven pace; it starts from
 * rest, and it shows a person's finish — a correction, a stop midway, or a hold before the release — which no
 * single easing curve has. A keyboard answer (its last point is the confirming Enter) needs ≥ 3 move presses, ≥ 800
 * ms, a pause before the Enter and an uneven rhythm. The track must end where the piece was dropped.
 */
export function judgeAnswer(answer: SliderAnswer, gapX: number): AnswerVerdict {
  const maxX = SLIDER_WIDTH - SLIDER_PIECE_SIZE;
  const { track } = answer;
  if (answer.x < 0 || answer.x > maxX) return 'implausible';
  const min = answer.kind === 'pointer' ? POINTER_MIN_POINTS : KEYBOARD_MIN_POINTS + 1;
  if (track.length < min) return 'implausible';
  const first = track[0];
  const last = track[track.length - 1];
  if (Math.abs(last[0] - answer.x) > 2) return 'implausible';
  for (let i = 1; i < track.length; i++) if (track[i][2] < track[i - 1][2]) return 'implausible';
  if (track.some((p) => p[0] < -2 || p[0] > maxX + 2 || Math.abs(p[1]) > SLIDER_HEIGHT)) return 'implausible';
  if (answer.kind === 'pointer') {
    if (last[2] - first[2] < POINTER_MIN_MS) return 'implausible';
    if (track.every((p) => p[1] === first[1])) return 'implausible';
    const steps = new Set<string>();
    for (let i = 1; i < track.length; i++)
      steps.add(`${track[i][0] - track[i - 1][0]}/${track[i][2] - track[i - 1][2]}`);
    if (steps.size === 1) return 'implausible';
    if (!startsFromRest(track)) return 'implausible';
    if (!hasCorrection(track) && !stopsMidway(track) && !holdsBeforeRelease(track)) return 'implausible';
  } else if (!keyboardRhythm(track)) {
    return 'implausible';
  }
  return Math.abs(answer.x - gapX) <= SLIDER_TOLERANCE_PX ? 'ok' : 'wrongPlace';
}

/** The result of a verify call. */
export type VerifyOutcome =
  { kind: 'pass'; pass: SliderPass } | { kind: 'failed'; remaining: number } | { kind: 'expired' };

/**
 * Server-side slider captcha: puzzles drawn and remembered here (the gap's place never leaves the service),
 * answers decrypted with the day key and judged, and single-use passes bound to one username.
 */
export class SliderCaptcha {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
  ) {}

  /** Draws and stores a new puzzle for a username (any string: unknown names get puzzles too). */
  async create(username: string): Promise<SliderPuzzle> {
    const now = this.clock.now().getTime();
    const id = randomSecret(24);
    const images = drawPuzzle();
    const expiresAt = now + SLIDER_PUZZLE_TTL_MS;
    await this.db
      .insertInto('captcha_puzzles')
      .values({
        id_hash: sha256(id),
        username: captchaSubject(username),
        x: images.x,
        y: images.y,
        tries: 0,
        solved: 0,
        created_at: now,
        expires_at: expiresAt,
      })
      .execute();
    return {
      captcha_id: id,
      background: images.background,
      piece: images.piece,
      width: SLIDER_WIDTH,
      height: SLIDER_HEIGHT,
      piece_size: SLIDER_PIECE_SIZE,
      piece_y: images.y,
      expires_at: expiresAt,
    };
  }

  /**
   * Checks an answer. The try is taken atomically before judging (so parallel answers to one puzzle get at most
   * 5 judgements); a right one marks the puzzle solved once and earns a pass.
   */
  async verify(username: string, captchaId: string, cipher: string): Promise<VerifyOutcome> {
    const now = this.clock.now().getTime();
    const idHash = sha256(captchaId);
    const row = await this.db
      .updateTable('captcha_puzzles')
      .set({ tries: sql<number>`tries + 1` })
      .where('id_hash', '=', idHash)
      .where('username', '=', captchaSubject(username))
      .where('solved', '=', 0)
      .where('tries', '<', SLIDER_MAX_TRIES)
      .where('expires_at', '>', now)
      .returning(['x', 'tries'])
      .executeTakeFirst();
    if (!row) return { kind: 'expired' };
    const text = decryptDayKeyed(cipher, now);
    const answer = text === null ? null : parseAnswer(text);
    const verdict = answer ? judgeAnswer(answer, Number(row.x)) : 'unreadable';
    const remaining = SLIDER_MAX_TRIES - Number(row.tries);
    if (verdict !== 'ok') return remaining > 0 ? { kind: 'failed', remaining } : { kind: 'expired' };
    const solved = await this.db
      .updateTable('captcha_puzzles')
      .set({ solved: 1 })
      .where('id_hash', '=', idHash)
      .where('solved', '=', 0)
      .executeTakeFirst();
    if (Number(solved.numUpdatedRows) !== 1) return { kind: 'expired' };
    const pass = randomSecret(24);
    const expiresAt = now + SLIDER_PASS_TTL_MS;
    await this.db
      .insertInto('captcha_passes')
      .values({
        pass_hash: sha256(pass),
        username: captchaSubject(username),
        created_at: now,
        expires_at: expiresAt,
        used_at: null,
      })
      .execute();
    return { kind: 'pass', pass: { pass, expires_at: expiresAt } };
  }

  /** Whether a pass is valid for the username, without spending it (the account check reads with it). */
  async isValid(username: string, pass: string): Promise<boolean> {
    const now = this.clock.now().getTime();
    const row = await this.db
      .selectFrom('captcha_passes')
      .select('pass_hash')
      .where('pass_hash', '=', sha256(pass))
      .where('username', '=', captchaSubject(username))
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return !!row;
  }

  /** Spends a pass for the username: true exactly once per pass, and only before it expires. */
  async spend(username: string, pass: string): Promise<boolean> {
    const now = this.clock.now().getTime();
    const r = await this.db
      .updateTable('captcha_passes')
      .set({ used_at: now })
      .where('pass_hash', '=', sha256(pass))
      .where('username', '=', captchaSubject(username))
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Removes puzzles and passes past their time; housekeeping. */
  async purgeExpired(): Promise<void> {
    const now = this.clock.now().getTime();
    await this.db.deleteFrom('captcha_puzzles').where('expires_at', '<=', now).execute();
    await this.db.deleteFrom('captcha_passes').where('expires_at', '<=', now).execute();
  }
}
