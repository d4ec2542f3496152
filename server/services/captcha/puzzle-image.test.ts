import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { SLIDER_HEIGHT, SLIDER_PIECE_SIZE, SLIDER_WIDTH } from '../../../schemas/captcha-rules';
import { GAPS_PER_PUZZLE, KNOB_PAIRS, drawPuzzle, shapeMask } from './puzzle-image';

const decode = (url: string) => PNG.sync.read(Buffer.from(url.slice(url.indexOf(',') + 1), 'base64'));

describe('slider puzzle drawing', () => {
  it('puts the gap and its decoys in the piece row, apart, inside the picture, the real one anywhere among them', () => {
    const ranks = new Set<number>();
    for (let n = 0; n < 60; n++) {
      const p = drawPuzzle();
      expect(p.decoys).toHaveLength(GAPS_PER_PUZZLE - 1);
      const all = [p.x, ...p.decoys].sort((a, b) => a - b);
      ranks.add(all.indexOf(p.x));
      for (let i = 1; i < all.length; i++) expect(all[i] - all[i - 1]).toBeGreaterThanOrEqual(SLIDER_PIECE_SIZE + 8);
      expect(all[0]).toBeGreaterThan(SLIDER_PIECE_SIZE);
      expect(all.at(-1)! + SLIDER_PIECE_SIZE).toBeLessThanOrEqual(SLIDER_WIDTH);
      expect(p.y).toBeGreaterThanOrEqual(0);
      expect(p.y + SLIDER_PIECE_SIZE).toBeLessThanOrEqual(SLIDER_HEIGHT);
    }
    expect(ranks).toEqual(new Set([0, 1, 2]));
  });

  it('draws the piece as a square with two knobs (its alpha is one of the six shapes)', () => {
    const masks = KNOB_PAIRS.map((k) => shapeMask(k).join(''));
    for (let n = 0; n < 20; n++) {
      const piece = decode(drawPuzzle().piece);
      const alpha = Array.from({ length: piece.width * piece.height }, (_, i) => (piece.data[i * 4 + 3] > 0 ? 1 : 0));
      expect(masks).toContain(alpha.join(''));
    }
  });
});
