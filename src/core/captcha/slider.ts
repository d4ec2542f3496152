import type { SliderAnswer } from '../../../schemas/captcha-rules';

/** One trajectory point `[x, y, t]`: the piece's left edge, the vertical offset from the start, ms since start. */
export type TrackPoint = SliderAnswer['track'][number];

/** Keeps a handle position inside the track: whole puzzle pixels from 0 to `max`. */
export function clampX(x: number, max: number): number {
  if (!Number.isFinite(x)) return 0;
  return Math.min(Math.max(0, Math.round(x)), Math.max(0, max));
}

/** How many screen pixels one puzzle pixel takes when the widget is drawn `shownWidth` wide (1 when unknown). */
export function scaleOf(shownWidth: number, puzzleWidth: number): number {
  return shownWidth > 0 && puzzleWidth > 0 ? shownWidth / puzzleWidth : 1;
}

/** Keeps at most `max` points, evenly spread, always the first and the last, so a long drag stays within the limit. */
export function thinTrack(points: readonly TrackPoint[], max: number): TrackPoint[] {
  if (points.length <= max) return [...points];
  if (max < 2) return points.slice(-Math.max(max, 0) || points.length);
  const out: TrackPoint[] = [];
  const step = (points.length - 1) / (max - 1);
  for (let i = 0; i < max; i++) out.push(points[Math.round(i * step)]);
  return out;
}

/** The keys that move the handle and by how much (`Shift` multiplies by ten); Home/End are handled apart. */
export function keyStep(key: string, shift: boolean): number {
  const unit = shift ? 10 : 1;
  switch (key) {
    case 'ArrowRight':
    case 'ArrowUp':
      return unit;
    case 'ArrowLeft':
    case 'ArrowDown':
      return -unit;
    case 'PageUp':
      return 10;
    case 'PageDown':
      return -10;
    default:
      return 0;
  }
}
