import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { SLIDER_TOLERANCE_PX, type SliderAnswer } from '../../schemas/captcha-rules';
import { useTestServer } from '../kit/server';
import { TEST_UMID, clientFrom, encryptAnswer, puzzleGap } from '../kit/captcha';
import { drawPuzzle } from '../../server/services/captcha/puzzle-image';

// The attacker's slider solver (issue 38): it reads the two pictures of a puzzle the way off-the-shelf solvers do —
// template matching of the piece's pixels against the background, and edge detection (Sobel) matched against the
// piece's outline — and answers with a synthetic eased drag. Over 100 puzzles its first-try success must stay at
// most 5 %. The slider only slows a script down; the lockout is what stops one (docs/security.md).

const PUZZLES = 100;

/** A decoded picture: RGBA bytes. */
type Picture = { width: number; height: number; data: Buffer };

const decode = (dataUrl: string): Picture =>
  PNG.sync.read(Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64'));

/** Luma of every pixel (alpha ignored). */
function grey(p: Picture): Float64Array {
  const g = new Float64Array(p.width * p.height);
  for (let i = 0; i < g.length; i++)
    g[i] = 0.299 * p.data[i * 4] + 0.587 * p.data[i * 4 + 1] + 0.114 * p.data[i * 4 + 2];
  return g;
}

/** Sobel gradient magnitude of a grey picture (borders 0). */
function sobel(g: Float64Array, w: number, h: number): Float64Array {
  const out = new Float64Array(w * h);
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const at = (dx: number, dy: number) => g[(y + dy) * w + x + dx];
      const gx = at(1, -1) + 2 * at(1, 0) + at(1, 1) - at(-1, -1) - 2 * at(-1, 0) - at(-1, 1);
      const gy = at(-1, 1) + 2 * at(0, 1) + at(1, 1) - at(-1, -1) - 2 * at(0, -1) - at(1, -1);
      out[y * w + x] = Math.hypot(gx, gy);
    }
  }
  return out;
}

/** Normalised cross-correlation of a template (values where `use` is set) with the window of `img` at (x, y). */
function ncc(tpl: Float64Array, use: Uint8Array, size: number, img: Float64Array, w: number, x: number, y: number) {
  let n = 0;
  let st = 0;
  let si = 0;
  for (let py = 0; py < size; py++)
    for (let px = 0; px < size; px++) {
      if (!use[py * size + px]) continue;
      n++;
      st += tpl[py * size + px];
      si += img[(y + py) * w + x + px];
    }
  const mt = st / n;
  const mi = si / n;
  let num = 0;
  let dt = 0;
  let di = 0;
  for (let py = 0; py < size; py++)
    for (let px = 0; px < size; px++) {
      if (!use[py * size + px]) continue;
      const a = tpl[py * size + px] - mt;
      const b = img[(y + py) * w + x + px] - mi;
      num += a * b;
      dt += a * a;
      di += b * b;
    }
  return dt > 0 && di > 0 ? num / Math.sqrt(dt * di) : 0;
}

/** Scores of every x along the piece's row, standardised (z-scores) so two methods can be added. */
function zScores(scores: number[]): number[] {
  const mean = scores.reduce((a, b) => a + b, 0) / scores.length;
  const sd = Math.sqrt(scores.reduce((a, b) => a + (b - mean) ** 2, 0) / scores.length) || 1;
  return scores.map((s) => (s - mean) / sd);
}

const argmax = (v: number[], from: number) => v.reduce((best, s, i) => (i >= from && s > v[best] ? i : best), from);

/** Where the solver believes the gap is, by each method: pixel template, edge outline, and both together. */
export function solve(puzzle: { background: string; piece: string; piece_y: number }) {
  const bg = decode(puzzle.background);
  const piece = decode(puzzle.piece);
  const size = piece.width;
  const y = puzzle.piece_y;
  const bgGrey = grey(bg);
  const pieceGrey = grey(piece);
  // The piece's shape from its alpha, and its outline (a shape pixel with a neighbour outside), 1 px thick, dilated.
  const inside = new Uint8Array(size * size);
  for (let i = 0; i < inside.length; i++) inside[i] = piece.data[i * 4 + 3] >= 128 ? 1 : 0;
  const outline = new Float64Array(size * size);
  for (let py = 0; py < size; py++)
    for (let px = 0; px < size; px++) {
      const here = inside[py * size + px];
      for (const [dx, dy] of [
        [1, 0],
        [0, 1],
      ]) {
        const nx = px + dx;
        const ny = py + dy;
        const there = nx < size && ny < size ? inside[ny * size + nx] : 0;
        if (here !== there) {
          outline[py * size + px] = 1;
          if (nx < size && ny < size) outline[ny * size + nx] = 1;
        }
      }
    }
  const all = new Uint8Array(size * size).fill(1);
  const edges = sobel(bgGrey, bg.width, bg.height);
  const template: number[] = [];
  const edge: number[] = [];
  for (let x = 0; x <= bg.width - size; x++) {
    template.push(ncc(pieceGrey, inside, size, bgGrey, bg.width, x, y));
    edge.push(ncc(outline, all, size, edges, bg.width, x, y));
  }
  // The gap never overlaps the piece's start; a solver learns that from a few puzzles.
  const from = Math.round(size / 2);
  const zt = zScores(template);
  const ze = zScores(edge);
  return {
    template: argmax(template, from),
    edge: argmax(edge, from),
    combined: argmax(
      zt.map((t, i) => t + ze[i]),
      from,
    ),
  };
}

/** A synthetic eased drag to `x`: ease-out over ~700 ms, frames of 16–24 ms, a little vertical wobble. */
export function easedDrag(x: number): SliderAnswer['track'] {
  const track: SliderAnswer['track'] = [[0, 0, 0]];
  const n = 36;
  let t = 0;
  for (let i = 1; i <= n; i++) {
    t += 16 + Math.floor(Math.random() * 9);
    const f = 1 - (1 - i / n) ** 3;
    track.push([Math.round(x * f), Math.round(Math.sin(i / 3) * 2), t]);
  }
  track[track.length - 1][0] = x;
  return track;
}

describe('slider solver (template matching and edge detection)', () => {
  const s = useTestServer({ env: { TRUST_PROXY: 'loopback' } });

  it(`solves at most 5 of ${PUZZLES} puzzles on the first try`, async () => {
    const hits = { template: 0, edge: 0, combined: 0 };
    let solved = 0;
    let client = clientFrom(s.url);
    for (let i = 0; i < PUZZLES; i++) {
      // 25 puzzles an address, under its 30 a minute.
      if (i > 0 && i % 25 === 0) client = clientFrom(s.url);
      const username = `target-${i}`;
      const base = `/users/ajax/users/${username}/sliderCaptcha`;
      const p = await client.req('POST', base, { body: { scene: 'login' } });
      expect(p.status, p.text).toBe(200);
      const guess = solve(p.json);
      // Only to report how well each method reads the pictures: the attacker does not see this.
      const gap = await puzzleGap(s.ctx, p.json.captcha_id);
      for (const k of ['template', 'edge', 'combined'] as const)
        if (Math.abs(guess[k] - gap) <= SLIDER_TOLERANCE_PX) hits[k]++;
      const answer: SliderAnswer = {
        x: guess.combined,
        track: easedDrag(guess.combined),
        kind: 'pointer',
        umid: TEST_UMID,
      };
      const v = await client.req('POST', `${base}:verify`, {
        body: { captcha_id: p.json.captcha_id, data: encryptAnswer(answer, s.clock.now().getTime()) },
      });
      if (v.status === 200) solved++;
      else expect(v.json.code).toBe('CaptchaFailed');
    }
    console.log(
      `slider solver over ${PUZZLES} puzzles: first-try success ${solved}/${PUZZLES}; ` +
        `gap found by template matching ${hits.template}, by edge detection ${hits.edge}, by both ${hits.combined}`,
    );
    expect(solved).toBeLessThanOrEqual(5);
  });

  it('draws a puzzle in little time (p99 printed)', () => {
    const times: number[] = [];
    for (let i = 0; i < 100; i++) {
      const t = performance.now();
      drawPuzzle();
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    console.log(`puzzle drawing: p50 ${times[49].toFixed(1)} ms, p99 ${times[98].toFixed(1)} ms`);
    // Loose: the machine may be busy; a puzzle is drawn for every request.
    expect(times[49]).toBeLessThan(100);
  });
});
