import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../kit/server';
import { compressAssets } from '../../scripts/lib/compress-assets';

// Compressed delivery as a browser sees it: raw bytes and headers over real HTTP (fetch would decode them).
const FIXTURE = path.join(import.meta.dirname, '../fixtures/server/web-dist');
const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'account-compress-dist-'));
fs.cpSync(FIXTURE, dist, { recursive: true });
// A script big enough to matter, written pre-compressed the way the build does.
const SCRIPT = Array.from({ length: 2000 }, (_, i) => `export const v${i} = "value ${i}";`).join('\n');
fs.writeFileSync(path.join(dist, 'vpc/static/js/big.0123abcd.js'), SCRIPT);
const summary = compressAssets(path.join(dist, 'vpc'));

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function get(url: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

describe('compressed delivery', () => {
  const s = useTestServer({ env: { DIST_DIR: dist } });
  let base: string;
  beforeAll(() => {
    base = s.url;
  });
  afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));

  it('the build step writes .br and .gz beside scripts', () => {
    expect(summary.files).toBeGreaterThanOrEqual(2);
    expect(fs.existsSync(path.join(dist, 'vpc/static/js/big.0123abcd.js.br'))).toBe(true);
    expect(summary.br).toBeLessThan(summary.raw / 5);
  });

  it('sends Brotli, gzip or the raw file by Accept-Encoding, with Vary and the year-long cache', async () => {
    const url = `${base}/static/js/big.0123abcd.js`;
    const br = await get(url, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(zlib.brotliDecompressSync(br.body).toString()).toBe(SCRIPT);
    expect(br.body.length).toBeLessThan(SCRIPT.length / 5);

    const gz = await get(url, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.body).toString()).toBe(SCRIPT);

    const plain = await get(url);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(SCRIPT);
  });

  it('compresses JSON answers over 1 KB, and leaves small ones alone', async () => {
    const doc = await get(`${base}/api/docs/json`, { 'accept-encoding': 'br' });
    expect(doc.headers['content-encoding']).toBe('br');
    expect(doc.headers.vary).toMatch(/accept-encoding/i);
    const json = JSON.parse(zlib.brotliDecompressSync(doc.body).toString()) as { paths: object };
    expect(Object.keys(json.paths).length).toBeGreaterThan(10);

    const small = await get(`${base}/individual/proxy/me`, { 'accept-encoding': 'br' });
    expect(small.status).toBe(401);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString()).code).toBeTruthy();
  });
});
