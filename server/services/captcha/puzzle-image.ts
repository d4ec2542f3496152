import crypto from 'node:crypto';
import { PNG } from 'pngjs';
import { SLIDER_HEIGHT, SLIDER_PIECE_SIZE, SLIDER_WIDTH } from '../../../schemas/captcha-rules';

/** The two pictures of one puzzle, as PNG data URLs, and where the gap is. */
export interface PuzzleImages {
  background: string;
  piece: string;
  x: number;
  y: number;
  /** Left edges of the decoy gaps (same row, same size, knobs on other sides); for tests and the docs' numbers. */
  decoys: number[];
}

type Rgb = [number, number, number];

/** A side of the piece's square body: top, right, bottom, left. */
export type Side = 0 | 1 | 2 | 3;

/** Gaps drawn in the piece's row: the real one and its decoys. */
export const GAPS_PER_PUZZLE = 3;
/** Least distance (px) between the left edges of two gaps of a row, so their knobs never touch. */
const GAP_SPACING = SLIDER_PIECE_SIZE + 8;
/** Where gaps may start (left edge): clear of the piece's start, inside the picture. */
const GAP_MIN_X = SLIDER_PIECE_SIZE + 10;
const GAP_MAX_X = SLIDER_WIDTH - SLIDER_PIECE_SIZE - 6;

const rand = (min: number, max: number) => min + crypto.randomInt(max - min + 1);

/**
 * Pixel noise: a xorshift generator seeded from the system's random source for each puzzle. Noise hides nothing
 * (where the gaps are and which is real come from `crypto`); drawing it from `crypto.randomInt` per pixel cost
 * most of a puzzle's time.
 */
function noiseSource(): Noise {
  let s = crypto.randomBytes(4).readUInt32LE() | 1;
  return (amp) => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return ((s >>> 0) % (2 * amp + 1)) - amp;
  };
}
/** Noise of one puzzle: an integer in [-amp, amp]. */
type Noise = (amp: number) => number;
const clamp = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : Math.round(v));

/** The geometry every shape shares: a square body in the middle of a SIZE² box, knobs of radius KNOB. */
const SIZE = SLIDER_PIECE_SIZE;
const KNOB = Math.round(SIZE * 0.14);
const BODY0 = KNOB + 2;
const BODY1 = SIZE - KNOB - 3;
const MID = (BODY0 + BODY1) / 2;
/** Centre of the knob on each side (on the body's edge). */
const KNOB_CENTRE: Record<Side, [number, number]> = {
  0: [MID, BODY0],
  1: [BODY1, MID],
  2: [MID, BODY1],
  3: [BODY0, MID],
};

const inBody = (px: number, py: number) => px >= BODY0 && px <= BODY1 && py >= BODY0 && py <= BODY1;
/** Whether a box pixel is in the knob of `side` (the part of its disc outside the body). */
const inKnob = (side: Side, px: number, py: number) => {
  const [cx, cy] = KNOB_CENTRE[side];
  return !inBody(px, py) && (px - cx) ** 2 + (py - cy) ** 2 <= KNOB * KNOB;
};

/** A shape's mask: the body and outward knobs on `knobs`, inside a SIZE² box. */
export function shapeMask(knobs: readonly Side[]): Uint8Array {
  const mask = new Uint8Array(SIZE * SIZE);
  for (let py = 0; py < SIZE; py++)
    for (let px = 0; px < SIZE; px++)
      if (inBody(px, py) || knobs.some((s) => inKnob(s, px, py))) mask[py * SIZE + px] = 1;
  return mask;
}

/** Whether a mask pixel lies on the outline (a neighbour is outside). */
function onEdge(mask: Uint8Array, px: number, py: number): boolean {
  for (const [dx, dy] of [
    [1, 0],
    [-1, 0],
    [0, 1],
    [0, -1],
  ]) {
    const nx = px + dx;
    const ny = py + dy;
    if (nx < 0 || ny < 0 || nx >= SIZE || ny >= SIZE || !mask[ny * SIZE + nx]) return true;
  }
  return false;
}

function hsl(h: number, s: number, l: number): Rgb {
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  return [Math.round(f(0) * 255), Math.round(f(8) * 255), Math.round(f(4) * 255)];
}

/** A random scene: a diagonal gradient between two hues, translucent discs and bars, and pixel noise. */
function paintBackground(img: PNG, noise: Noise): void {
  const { width: w, height: h, data } = img;
  const hue = rand(0, 359);
  const from = hsl(hue, 0.55, 0.55);
  const to = hsl((hue + rand(60, 180)) % 360, 0.6, 0.4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const t = (x / w + y / h) / 2;
      const i = (y * w + x) * 4;
      for (let c = 0; c < 3; c++) data[i + c] = Math.round(from[c] * (1 - t) + to[c] * t);
      data[i + 3] = 255;
    }
  }
  const shapes = rand(10, 16);
  for (let n = 0; n < shapes; n++) {
    const color = hsl(rand(0, 359), rand(30, 80) / 100, rand(25, 75) / 100);
    const alpha = rand(25, 60) / 100;
    const disc = n % 3 !== 0;
    const cx = rand(0, w);
    const cy = rand(0, h);
    const r = rand(8, 40);
    const bw = rand(20, 120);
    const bh = rand(6, 30);
    for (let y = Math.max(0, cy - r - bh); y < Math.min(h, cy + r + bh); y++) {
      for (let x = Math.max(0, cx - r - bw); x < Math.min(w, cx + r + bw); x++) {
        const inside = disc
          ? (x - cx) ** 2 + (y - cy) ** 2 <= r * r
          : Math.abs(x - cx) <= bw / 2 && Math.abs(y - cy) <= bh / 2;
        if (!inside) continue;
        const i = (y * w + x) * 4;
        for (let c = 0; c < 3; c++) data[i + c] = Math.round(data[i + c] * (1 - alpha) + color[c] * alpha);
      }
    }
  }
  for (let i = 0; i < data.length; i += 4) {
    const n = noise(6);
    for (let c = 0; c < 3; c++) data[i + c] = clamp(data[i + c] + n);
  }
}

/** Whether a knob pixel lies in the band where the knob meets the body (its first two rows or columns). */
const inBand = (side: Side, px: number, py: number) => {
  if (!inKnob(side, px, py)) return false;
  const out = side === 0 ? BODY0 - py : side === 1 ? px - BODY1 : side === 2 ? py - BODY1 : BODY0 - px;
  return out <= 2;
};

/**
 * Carves one gap into the background at (x, y): the body and the knobs on `knobs` are a shadow (the scene darkened,
 * with its own noise), the other two sides carry raised bumps of the knob's size (the scene lightened), and each
 * knob hole has a light band where it meets the body. So in an edge map every gap has the same outline — the
 * body's four sides and four arcs — whichever sides are holes; a person sees which knobs are dark.
 */
function carveGap(bg: PNG, x: number, y: number, knobs: readonly Side[], noise: Noise): void {
  const mask = shapeMask(knobs);
  const sides: Side[] = [0, 1, 2, 3];
  const bumps = sides.filter((s) => !knobs.includes(s));
  // Holes and bumps differ from the scene by the same amount, so their outlines are equally strong.
  const depth = rand(55, 75);
  const w = bg.width;
  for (let py = 0; py < SIZE; py++) {
    for (let px = 0; px < SIZE; px++) {
      const i = ((y + py) * w + x + px) * 4;
      const n = noise(10);
      if (knobs.some((s) => inBand(s, px, py)) || bumps.some((s) => inBand(s, px, py))) continue;
      const shift = bumps.some((s) => inKnob(s, px, py)) ? depth : mask[py * SIZE + px] ? -depth : 0;
      if (shift) for (let c = 0; c < 3; c++) bg.data[i + c] = clamp(bg.data[i + c] + shift + n);
    }
  }
}

/**
 * Draws the piece with its own texture — a gradient of a hue of its own, stripes, noise and an outline light or
 * dark at random — so
 * no pixel of it comes from the background or from the gap.
 */
function paintPiece(knobs: readonly Side[], noise: Noise): PNG {
  const mask = shapeMask(knobs);
  const piece = new PNG({ width: SIZE, height: SIZE });
  piece.data.fill(0);
  const hue = rand(0, 359);
  const a = hsl(hue, rand(40, 70) / 100, rand(55, 68) / 100);
  const b = hsl((hue + rand(20, 60)) % 360, rand(40, 70) / 100, rand(38, 50) / 100);
  const angle = (rand(0, 359) * Math.PI) / 180;
  const slope = (rand(0, 359) * Math.PI) / 180;
  const period = rand(4, 8);
  const stripe = rand(26, 40);
  // The outline is lighter on some pieces and darker on others: its brightness says nothing about the gap.
  const rim = (crypto.randomInt(2) ? 1 : -1) * rand(50, 80);
  for (let py = 0; py < SIZE; py++) {
    for (let px = 0; px < SIZE; px++) {
      if (!mask[py * SIZE + px]) continue;
      const i = (py * SIZE + px) * 4;
      // where the piece is along its gradient (0..1, in a random direction)
      const t = 0.5 + ((px - SIZE / 2) * Math.cos(slope) + (py - SIZE / 2) * Math.sin(slope)) / (1.5 * SIZE);
      const s = Math.sin((px * Math.cos(angle) + py * Math.sin(angle)) / period) * stripe;
      const n = noise(8) + (onEdge(mask, px, py) ? rim : 0);
      for (let c = 0; c < 3; c++) piece.data[i + c] = clamp(a[c] * (1 - t) + b[c] * t + s + n);
      piece.data[i + 3] = 255;
    }
  }
  return piece;
}

const dataUrl = (png: PNG) => `data:image/png;base64,${PNG.sync.write(png, { colorType: 6 }).toString('base64')}`;

/** All pairs of sides; a shape has knobs on one pair. */
export const KNOB_PAIRS: Side[][] = [
  [0, 1],
  [0, 2],
  [0, 3],
  [1, 2],
  [1, 3],
  [2, 3],
];

/** Random distinct left edges for `n` gaps in [GAP_MIN_X, GAP_MAX_X], at least GAP_SPACING apart, sorted. */
function gapPlaces(n: number): number[] {
  const slack = GAP_MAX_X - GAP_MIN_X - (n - 1) * GAP_SPACING;
  const shifts = Array.from({ length: n }, () => rand(0, slack)).sort((p, q) => p - q);
  return shifts.map((s, i) => GAP_MIN_X + i * GAP_SPACING + s);
}

/**
 * Draws a new puzzle: a random background with the real gap and decoy gaps in the piece's row, and the piece.
 * The piece's knobs sit on two sides; each decoy shares one of them and has its other knob elsewhere, so only the
 * real gap's dark outline is the piece's. Nothing is reused between puzzles, and nothing of the piece is
 * background pixels.
 */
export function drawPuzzle(): PuzzleImages {
  const noise = noiseSource();
  const y = rand(6, SLIDER_HEIGHT - SIZE - 6);
  const knobs = KNOB_PAIRS[crypto.randomInt(KNOB_PAIRS.length)];
  const near = KNOB_PAIRS.filter((p) => p.filter((s) => knobs.includes(s)).length === 1);
  for (let i = near.length - 1; i > 0; i--) {
    const j = crypto.randomInt(i + 1);
    [near[i], near[j]] = [near[j], near[i]];
  }
  const places = gapPlaces(GAPS_PER_PUZZLE);
  const real = crypto.randomInt(places.length);
  const bg = new PNG({ width: SLIDER_WIDTH, height: SLIDER_HEIGHT });
  paintBackground(bg, noise);
  let d = 0;
  places.forEach((px, i) => carveGap(bg, px, y, i === real ? knobs : near[d++], noise));
  return {
    background: dataUrl(bg),
    piece: dataUrl(paintPiece(knobs, noise)),
    x: places[real],
    y,
    decoys: places.filter((_, i) => i !== real),
  };
}
