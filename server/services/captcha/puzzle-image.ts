import crypto from 'node:crypto';
import { PNG } from 'pngjs';
import { SLIDER_HEIGHT, SLIDER_PIECE_SIZE, SLIDER_WIDTH } from '../../../schemas/captcha-rules';

/** The two pictures of one puzzle, as PNG data URLs, and where the gap is. */
export interface PuzzleImages {
  background: string;
  piece: string;
  x: number;
  y: number;
}

type Rgb = [number, number, number];

const rand = (min: number, max: number) => min + crypto.randomInt(max - min + 1);

/** The piece's outline: a square body with a round knob on top and one on the right, inside a SIZE² box. */
function pieceMask(size: number): Uint8Array {
  const mask = new Uint8Array(size * size);
  const knob = Math.round(size * 0.14);
  const body = { x0: 2, y0: knob + 2, x1: size - knob - 3, y1: size - 3 };
  const cx = (body.x0 + body.x1) / 2;
  const cy = (body.y0 + body.y1) / 2;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      const inBody = px >= body.x0 && px <= body.x1 && py >= body.y0 && py <= body.y1;
      const inTop = (px - cx) ** 2 + (py - body.y0) ** 2 <= knob * knob;
      const inRight = (px - body.x1) ** 2 + (py - cy) ** 2 <= knob * knob;
      if (inBody || inTop || inRight) mask[py * size + px] = 1;
    }
  }
  return mask;
}

const MASK = pieceMask(SLIDER_PIECE_SIZE);

/** Whether a mask pixel lies on the outline (a neighbour is outside). */
function onEdge(mask: Uint8Array, size: number, px: number, py: number): boolean {
  for (const [dx, dy] of [
    [1, 0],
    [-1, 0],
    [0, 1],
    [0, -1],
  ]) {
    const nx = px + dx;
    const ny = py + dy;
    if (nx < 0 || ny < 0 || nx >= size || ny >= size || !mask[ny * size + nx]) return true;
  }
  return false;
}

function hsl(h: number, s: number, l: number): Rgb {
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  return [Math.round(f(0) * 255), Math.round(f(8) * 255), Math.round(f(4) * 255)];
}

/** A random scene: a diagonal gradient between two hues, overlapping translucent discs and bars. */
function paintBackground(img: PNG): void {
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
}

const dataUrl = (png: PNG) => `data:image/png;base64,${PNG.sync.write(png, { colorType: 6 }).toString('base64')}`;

/**
 * Draws a new puzzle: a random background with a shaded gap at a random place, and the piece cut from the
 * same place (transparent outside its outline). Nothing is reused between puzzles.
 */
export function drawPuzzle(): PuzzleImages {
  const size = SLIDER_PIECE_SIZE;
  const x = rand(size + 10, SLIDER_WIDTH - size - 6);
  const y = rand(6, SLIDER_HEIGHT - size - 6);
  const bg = new PNG({ width: SLIDER_WIDTH, height: SLIDER_HEIGHT });
  paintBackground(bg);
  const piece = new PNG({ width: size, height: size });
  piece.data.fill(0);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      if (!MASK[py * size + px]) continue;
      const edge = onEdge(MASK, size, px, py);
      const bi = ((y + py) * SLIDER_WIDTH + (x + px)) * 4;
      const pi = (py * size + px) * 4;
      for (let c = 0; c < 3; c++) {
        const v = bg.data[bi + c];
        piece.data[pi + c] = edge ? 255 : Math.min(255, Math.round(v * 1.08));
        bg.data[bi + c] = edge ? Math.round(v * 0.5 + 127) : Math.round(v * 0.42);
      }
      piece.data[pi + 3] = edge ? 230 : 255;
    }
  }
  return { background: dataUrl(bg), piece: dataUrl(piece), x, y };
}
