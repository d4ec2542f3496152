/**
 * The slider captcha's rules, once for the web widget and the service (no imports: safe in any bundle).
 * The service draws the puzzle at this size; the widget shows it 1:1 and reports positions in these pixels.
 */

/** Width of the puzzle background in pixels. */
export const SLIDER_WIDTH = 320;
/** Height of the puzzle background in pixels. */
export const SLIDER_HEIGHT = 160;
/** Side of the square that holds the puzzle piece (its knobs included). */
export const SLIDER_PIECE_SIZE = 56;
/** How far (px) the dropped piece may be from the gap and still count. */
export const SLIDER_TOLERANCE_PX = 4;
/** Tries one puzzle allows before a new one is needed (fewer than its gaps: decoys cannot all be tried). */
export const SLIDER_MAX_TRIES = 3;
/** How long a puzzle can be solved (ms): a short window; the widget fetches a fresh one before it closes. */
export const SLIDER_PUZZLE_TTL_MS = 60 * 1000;
/** How long a pass from a solved puzzle is valid (ms); it serves one action only. */
export const SLIDER_PASS_TTL_MS = 2 * 60 * 1000;
/** Most trajectory points one answer may carry. */
export const SLIDER_TRACK_MAX_POINTS = 600;
/** Longest encrypted answer the service reads (characters). */
export const SLIDER_ANSWER_MAX = 32 * 1024;
/** After UTC midnight, the previous day's key is still accepted this long (ms). */
export const SLIDER_KEY_GRACE_MS = 5 * 60 * 1000;

/**
 * What the browser encrypts with the day key and sends to `sliderCaptcha:verify`: where the piece was dropped
 * (left edge, px), how it got there, the input used, and the device fingerprint (`umid`).
 * `track` points are `[x, y, t]`: the piece's left edge, the pointer's vertical offset from where the drag
 * started, and ms since the drag (or the first key press) began. A drag's last point is its release; a keyboard
 * answer's last point is the Enter that confirmed it.
 */
export interface SliderAnswer {
  x: number;
  track: Array<[number, number, number]>;
  kind: 'pointer' | 'keyboard';
  umid: string;
}
