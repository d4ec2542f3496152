import { describe, expect, it } from 'vitest';
import { chunkName, overBudget, SIZE_BUDGETS, type SizeRow } from './size';

const row = (kind: SizeRow['kind'], file: string, gzip: number): SizeRow => ({ kind, file, raw: gzip * 3, gzip });

describe('size budgets', () => {
  it('names chunks without folder and hash', () => {
    expect(chunkName('/static/js/async/plugin-profile.248682bf.js')).toBe('plugin-profile.js');
  });

  it('passes within budget and reports each excess', () => {
    const ok = [row('initial js', '/a.11111111.js', 100 * 1024), row('lazy js', '/plugin-x.22222222.js', 10 * 1024)];
    expect(overBudget('vpc', ok)).toEqual([]);
    const bad = [
      row('initial js', '/a.11111111.js', SIZE_BUDGETS.initialJsGzip),
      row('initial js', '/b.11111111.js', 1),
      row('lazy js', '/static/js/async/plugin-big.33333333.js', SIZE_BUDGETS.lazyChunkGzip + 1),
      row('lazy js', '/static/js/async/vendors-x.44444444.js', SIZE_BUDGETS.lazyChunkGzip + 1),
      row('lazy js', '/static/js/async/vendors-y.55555555.js', SIZE_BUDGETS.lazyChunkGzip),
    ];
    expect(overBudget('vpc', bad)).toEqual([
      'vpc: initial JS 150.0 KB gzip exceeds 150.0 KB',
      'vpc: plugin-big.js 50.0 KB gzip exceeds 50.0 KB',
      'vpc: vendors-x.js 50.0 KB gzip exceeds 50.0 KB',
    ]);
  });
});
