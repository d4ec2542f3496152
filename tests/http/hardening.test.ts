// No input crashes the service: deep JSON, oversized bodies, bad URLs, header-breaking values, malformed or
// stalled requests all answer in the error shape with the security headers (issue 15, items 2 and 4).
import net from 'node:net';
import path from 'node:path';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp, DEFAULT_REQUEST_TIMEOUT_MS } from '../../server/app';
import { loadConfig } from '../../server/config';
import { dropPgSchema } from '../../server/db/index';
import { MAX_JSON_DEPTH, jsonDepth } from '../../server/http/json-body';
import {
  Client,
  TEST_HASH_PARAMS,
  orgSeed,
  startTestServer,
  tempDataDir,
  useTestServer,
  type Answer,
} from '../kit/server';

/** The error shape, its request id echoed in X-Request-Id, and the security headers every answer carries. */
function expectShapeAndHeaders(
  a: { status: number; headers: Headers; json: Answer['json'] },
  status: number,
  code: string,
) {
  expect(a.status).toBe(status);
  expect(Object.keys(a.json ?? {}).sort()).toEqual(['code', 'message', 'requestId', 'status']);
  expect(a.json).toMatchObject({ status, code });
  expect(a.json.message.length).toBeGreaterThan(0);
  expect(a.json.requestId).toBe(a.headers.get('x-request-id'));
  expect(a.headers.get('x-content-type-options')).toBe('nosniff');
  expect(a.headers.get('x-frame-options')).toBe('DENY');
  expect(a.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  expect(a.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  expect(a.headers.get('cache-control')).toBe('no-store');
}

/** What a raw TCP exchange produced: the bytes answered and how long until the service closed the connection. */
interface RawExchange {
  status: number | null;
  headers: Headers;
  json: Answer['json'];
  closedAfterMs: number;
}

/** Sends `data` on a raw socket and waits (at most `maxMs`) for the service to close the connection. */
function rawExchange(url: string, data: string, maxMs = 10_000): Promise<RawExchange> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(Number(port), hostname, () => socket.write(data));
    const chunks: Buffer[] = [];
    const guard = setTimeout(() => {
      socket.destroy();
      reject(new Error(`connection still open after ${maxMs} ms`));
    }, maxMs);
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(guard);
      const text = Buffer.concat(chunks).toString('utf8');
      const [head, ...rest] = text.split('\r\n\r\n');
      const lines = head.split('\r\n');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(lines[0] ?? '')?.[1];
      const headers = new Headers();
      for (const l of lines.slice(1)) {
        const i = l.indexOf(':');
        if (i > 0) headers.append(l.slice(0, i).trim(), l.slice(i + 1).trim());
      }
      let json: Answer['json'];
      try {
        json = JSON.parse(rest.join('\r\n\r\n'));
      } catch {
        json = undefined;
      }
      resolve({ status: status ? Number(status) : null, headers, json, closedAfterMs: Date.now() - started });
    });
  });
}

describe('JSON bodies: a depth limit before parsing, a size limit per route', () => {
  const s = useTestServer({ seed: orgSeed('Acme', ['alice']) });

  it('counts depth in one pass, ignoring brackets inside strings', () => {
    expect(jsonDepth('[]')).toBe(1);
    expect(jsonDepth('{"a":[{"b":"[[[[{{{{"}]}')).toBe(3);
    expect(jsonDepth('"\\"[[["')).toBe(0);
    expect(jsonDepth('['.repeat(5000))).toBe(MAX_JSON_DEPTH + 1);
  });

  it('POST /api/logs nested 5,000 arrays deep (10 KB) → 400 JsonTooDeep, not 500, and the service lives on', async () => {
    const c = new Client(s.url);
    // Inside an entry (which the schema takes as any JSON): this one answered 500 (JSON.stringify overflowed).
    const inEntry = '[{"a":' + '['.repeat(4996) + ']'.repeat(4996) + '}]';
    expect(inEntry.length).toBe(10_000);
    expectShapeAndHeaders(await c.req('POST', '/api/logs', { raw: inEntry }), 400, 'JsonTooDeep');
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    expectShapeAndHeaders(await c.req('POST', '/api/logs', { raw: deep }), 400, 'JsonTooDeep');
    const obj = '{"a":'.repeat(5000) + '1' + '}'.repeat(5000);
    expectShapeAndHeaders(await c.req('POST', '/api/logs', { raw: `[${obj}]` }), 400, 'JsonTooDeep');
    expectShapeAndHeaders(await c.req('POST', '/users/ajax/login', { raw: obj }), 400, 'JsonTooDeep');
    // As deep as allowed: accepted (the batch array is level 1, the entry level 2).
    const ok = '{"a":'.repeat(MAX_JSON_DEPTH - 2) + '1' + '}'.repeat(MAX_JSON_DEPTH - 2);
    expect((await c.req('POST', '/api/logs', { raw: `[{"deep":${ok}}]` })).status).toBe(204);
    expect((await c.req('GET', '/users/ajax/users/alice/check')).status).toBe(200);
  });

  it('keeps refusing __proto__ and constructor.prototype keys, empty and malformed JSON (400 in the shape)', async () => {
    const c = new Client(s.url);
    for (const raw of ['[{"__proto__":{"x":1}}]', '[{"constructor":{"prototype":{"x":1}}}]', '', '[{"a":']) {
      expectShapeAndHeaders(await c.req('POST', '/api/logs', { raw }), 400, 'InvalidJson');
    }
  });

  it('refuses a body over the route limit with 413 in the shape (the log collector takes 64 KB)', async () => {
    const c = new Client(s.url);
    const over = JSON.stringify([{ a: 'x'.repeat(64 * 1024) }]);
    expectShapeAndHeaders(await c.req('POST', '/api/logs', { raw: over }), 413, 'PayloadTooLarge');
    const big = JSON.stringify({ username: 'a', password: 'x'.repeat(70 * 1024) });
    expectShapeAndHeaders(await c.req('POST', '/users/ajax/login', { raw: big }), 413, 'PayloadTooLarge');
  });
});

describe("the framework's own errors answer in the shape with the security headers", () => {
  const s = useTestServer({ seed: orgSeed('Acme', ['alice']) });

  it('a bad % in the URL → 400 InvalidUrl (was Fastify’s format, no headers)', async () => {
    for (const p of ['/users/ajax/users/%E0%A4%A/check', '/users/ajax/users/%zz/check', '/api/docs/%']) {
      const a = await new Client(s.url).req('GET', p, { headers: { 'accept-language': 'en' } });
      expectShapeAndHeaders(a, 400, 'InvalidUrl');
      expect(a.json.message).toMatch(/address is not valid/);
    }
    const zh = await new Client(s.url).req('GET', '/users/ajax/users/%zz/check', {
      headers: { cookie: 'ak_user_locale=zh_CN' },
    });
    expect(zh.json.message).toMatch(/请求地址无效/);
  });

  it('an unknown path → 404, an unknown method on a known path → 404, both in the shape', async () => {
    expectShapeAndHeaders(await new Client(s.url).req('GET', '/users/ajax/v9/nothing'), 404, 'NotFound');
    expectShapeAndHeaders(await new Client(s.url).req('DELETE', '/users/ajax/login'), 404, 'NotFound');
  });

  it('malformed request headers → 400 BadRequest, oversized ones → 431, in the shape, connection closed', async () => {
    const bad = await rawExchange(s.url, 'GET /users/login HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n');
    expectShapeAndHeaders({ ...bad, status: bad.status ?? 0 }, 400, 'BadRequest');
    const huge = await rawExchange(
      s.url,
      `GET /users/login HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expectShapeAndHeaders({ ...huge, status: huge.status ?? 0 }, 431, 'HeadersTooLarge');
  });

  it('logout with next=%2F%E2%88%95evil.com → a redirect with a header-safe Location, not a 500', async () => {
    const c = new Client(s.url);
    await c.login('alice', 'Secret#123');
    const out = await c.req('POST', '/users/logout?next=%2F%E2%88%95evil.com', { body: {} });
    expect(out.status).toBe(303);
    const location = out.headers.get('location')!;
    expect(location).toMatch(/^\/[^/\\]/);
    expect(location).not.toMatch(/[^\x21-\x7e]/);
    expect((await c.req('GET', '/individual/proxy/me')).status).toBe(401);
    const zh = await new Client(s.url).req('GET', `/users/logout?next=${encodeURIComponent('/users/settings/中')}`);
    expect(zh.status).toBe(302);
    expect(zh.headers.get('location')).toMatch(/^\/[\x21-\x7e]*$/);
  });
});

describe('a handler whose answer cannot be written still answers in the shape', () => {
  let app: FastifyInstance;
  let url: string;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = tempDataDir();
    const config = loadConfig({
      DATA_DIR: dataDir,
      DIST_DIR: path.join(import.meta.dirname, '../fixtures/server/web-dist'),
      ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    });
    app = await buildApp({
      ...config,
      pgSchema: config.databaseUrl ? `t_hard_${process.pid}` : undefined,
      hashParams: TEST_HASH_PARAMS,
      logger: false,
    });
    // Routes made to fail the way a bug would: a header Node refuses, an error message full of line breaks.
    app.get('/test/bad-location', async (_req, reply) => reply.redirect('/users/settings/中'));
    app.get('/test/bad-header', async (_req, reply) => {
      reply.header('x-note', 'a\u2028b');
      return { ok: true };
    });
    app.get('/test/throws', async () => {
      throw new Error('broken\r\nSet-Cookie: x=1 中');
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(app.server.address() as net.AddressInfo).port}`;
  });
  afterAll(async () => {
    await app?.close();
    if (process.env.DATABASE_URL && app) await dropPgSchema(process.env.DATABASE_URL, `t_hard_${process.pid}`);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 500 SystemError with the security headers, no Location, nothing of the message', async () => {
    for (const p of ['/test/bad-location', '/test/bad-header', '/test/throws']) {
      const a = await new Client(url).req('GET', p);
      expectShapeAndHeaders(a, 500, 'SystemError');
      expect(a.headers.get('location'), p).toBeNull();
      expect(a.headers.get('x-note'), p).toBeNull();
      expect(a.headers.get('set-cookie'), p).toBeNull();
      expect(a.text, p).not.toContain('broken');
    }
  });
});

describe('stalled requests are closed (request and header timeouts)', () => {
  const s = useTestServer({ requestTimeoutMs: 1000 });

  it('a body declaring Content-Length: 5 and sending 2 bytes → 408 in the shape, closed within ~1 s', async () => {
    const r = await rawExchange(
      s.url,
      'POST /api/logs HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Requested-With: XMLHttpRequest\r\n' +
        'Content-Length: 5\r\n\r\n[{',
    );
    expect(r.closedAfterMs).toBeLessThan(3000);
    expectShapeAndHeaders({ ...r, status: r.status ?? 0 }, 408, 'RequestTimeout');
  });

  it('headers that never end → 408, closed within ~1 s', async () => {
    const r = await rawExchange(s.url, 'GET /users/login HTTP/1.1\r\nHost: x\r\nX-Slow: 1\r\n');
    expect(r.closedAfterMs).toBeLessThan(3000);
    expect(r.status).toBe(408);
  });

  it('a connection that sends nothing is closed too', async () => {
    const r = await rawExchange(s.url, '');
    expect(r.closedAfterMs).toBeLessThan(3000);
  });

  it('by default a stalled request is closed within 30 s (20 s timeout, checked every 5 s)', async () => {
    expect(DEFAULT_REQUEST_TIMEOUT_MS + DEFAULT_REQUEST_TIMEOUT_MS / 4).toBeLessThanOrEqual(30_000);
    const dflt = await startTestServer();
    try {
      expect(dflt.app.server.requestTimeout).toBe(DEFAULT_REQUEST_TIMEOUT_MS);
      expect(dflt.app.server.headersTimeout).toBe(DEFAULT_REQUEST_TIMEOUT_MS);
    } finally {
      await dflt.close();
    }
  });
});
