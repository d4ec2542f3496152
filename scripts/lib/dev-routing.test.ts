import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servedByDevServer } from './dev-routing';

// npm run dev: which requests rsbuild's dev server answers itself, and which go on to the service.
let dir = '';

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dev-routing-'));
  fs.mkdirSync(path.join(dir, 'static', 'js'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'static', 'js', 'index.1234abcd.js'), '');
  fs.writeFileSync(path.join(dir, 'index.html'), '');
  fs.writeFileSync(path.join(dir, 'logo.svg'), '');
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('servedByDevServer', () => {
  it("keeps the build's files, hot updates and the dev server's own paths", () => {
    expect(servedByDevServer('/static/js/index.1234abcd.js', dir)).toBe(true);
    expect(servedByDevServer('/logo.svg?v=1', dir)).toBe(true);
    expect(servedByDevServer('/index.0123456789abcdef.hot-update.js', dir)).toBe(true);
    expect(servedByDevServer('/rsbuild-hmr?token=x', dir)).toBe(true);
  });

  it('sends pages, the API and anything not built to the service', () => {
    expect(servedByDevServer('/', dir)).toBe(false);
    expect(servedByDevServer('/index.html', dir)).toBe(false);
    expect(servedByDevServer('/users/login?next=/x', dir)).toBe(false);
    expect(servedByDevServer('/users/ajax/v1/my/tokens:search', dir)).toBe(false);
    expect(servedByDevServer('/api/docs', dir)).toBe(false);
    expect(servedByDevServer('/static/js', dir)).toBe(false);
    expect(servedByDevServer('/static/../../etc/passwd', dir)).toBe(false);
    expect(servedByDevServer('/static/%E0%A4%A', dir)).toBe(false);
  });
});
