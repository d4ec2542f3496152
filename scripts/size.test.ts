import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PageChunks } from '../schemas/page-chunks';
import { chunkName, measurePages, overBudget, SIZE_BUDGETS, type SizeRow } from './size';

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

describe('page table', () => {
  it("counts a page's initial and lazy files in the edition's language, once each", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'size-pages-'));
    fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><html lang="en"><head></head></html>');
    const chunks: PageChunks = {
      common: ['/static/js/async/root.js'],
      locales: { zh_CN: ['/static/js/async/zh.js'], en_US: ['/static/js/async/en.js'] },
      settings: ['/static/js/async/shell.js', '/static/js/async/root.js'],
      routes: [{ path: '/users/login', files: ['/static/js/async/login.js', '/static/css/async/login.css'] }],
      sections: { ssh: ['/static/js/async/ssh.js'] },
    };
    fs.writeFileSync(path.join(dir, 'page-chunks.json'), JSON.stringify(chunks));
    const rows = [
      row('initial js', '/static/js/index.js', 100),
      row('initial css', '/static/css/index.css', 10),
      row('lazy js', '/static/js/async/root.js', 20),
      row('lazy js', '/static/js/async/zh.js', 1000),
      row('lazy js', '/static/js/async/en.js', 2000),
      row('lazy js', '/static/js/async/shell.js', 3),
      row('lazy js', '/static/js/async/ssh.js', 4),
      row('lazy js', '/static/js/async/login.js', 5),
      row('lazy css', '/static/css/async/login.css', 6),
    ];
    expect(measurePages(dir, rows)).toEqual([
      { page: '/users/settings/ssh', scripts: 5, styles: 1, gzip: 2137 },
      { page: '/users/login', scripts: 4, styles: 2, gzip: 2141 },
    ]);
  });
});
