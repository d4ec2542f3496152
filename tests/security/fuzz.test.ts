import http from 'node:http';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../kit/server';
import { expectNoSecrets } from '../kit/secrets';

// A fuzzer driven by the service's own OpenAPI document: every route it documents gets RUNS_PER_ROUTE malformed
// requests (odd path parameters, query strings, bodies, content types and credentials), half signed in and half
// not. No answer may be a 5xx, every API error must have the one error shape with the security headers, and the
// service must still answer afterwards. Deterministic (fixed seed), so a failure replays.

// 300 per route on SQLite; on PostgreSQL (the same routes, schemas and validation, run again for what the dialect
// answers to odd values) a third of that finds what differs, for half the suite's PostgreSQL time.
const RUNS_PER_ROUTE = process.env.DATABASE_URL ? 100 : 300;
const SEED = 20261122;

interface Route {
  method: string;
  path: string;
}

interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

interface Got {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** Sends one request as bytes on the wire (no client-side URL normalisation: bad `%` sequences go out as they are). */
function send(port: number, r: Sent): Promise<Got> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method: r.method, path: r.path, headers: r.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.setTimeout(10_000, () => req.destroy(new Error(`timeout: ${r.method} ${r.path}`)));
    if (r.body !== undefined) req.write(r.body);
    req.end();
  });
}

/** A deeply nested array or object (the JSON depth attack), as text. */
const deepJson = fc
  .tuple(fc.integer({ min: 20, max: 6000 }), fc.boolean())
  .map(([depth, arrays]) =>
    arrays ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth),
  );

/** Values a path segment or query value may take: odd unicode, traversal, percent garbage, very long. */
const segment = fc.oneof(
  fc.string({ maxLength: 40 }).map(encodeURIComponent),
  fc.string({ unit: 'grapheme', maxLength: 20 }).map(encodeURIComponent),
  fc.constantFrom(
    '..',
    '%2e%2e',
    '%zz',
    '%',
    '%00',
    '%C0%AF',
    '%E2%88%95',
    '0',
    '-1',
    'null',
    'undefined',
    '__proto__',
  ),
  fc.integer({ min: 300, max: 2000 }).map((n) => 'a'.repeat(n)),
  fc.stringMatching(/^[0-9a-f]{24}$/),
);

const bodyText = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  fc.dictionary(fc.string({ maxLength: 20 }), fc.jsonValue({ maxDepth: 2 })).map((v) => JSON.stringify(v)),
  deepJson,
  fc.string({ maxLength: 200 }),
  fc.constantFrom('', '{', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{"x":1}}}', 'null', '[]', '"x"'),
  fc
    .integer({ min: 1, max: 300 })
    .map((k) => JSON.stringify({ username: 'x'.repeat(k * 10), password: 'y', x: 'z'.repeat(k * 100) })),
);

const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'application/xml',
  '',
);

/** One malformed request for a route template, for a client that is signed in or not. */
function requestFor(route: Route, cookie: string, csrf: string) {
  return fc
    .record({
      params: fc.array(segment, { minLength: 4, maxLength: 4 }),
      query: fc.array(fc.tuple(fc.constantFrom('next', 'x', 'token', 'page', 'q', '%zz'), segment), { maxLength: 3 }),
      body: fc.option(bodyText, { nil: undefined }),
      type: contentType,
      signedIn: fc.boolean(),
      withCsrf: fc.boolean(),
      tenant: fc.option(segment, { nil: undefined }),
      bearer: fc.option(fc.string({ maxLength: 80 }), { nil: undefined }),
      address: fc.ipV4(),
    })
    .map((g): Sent => {
      let i = 0;
      const path = route.path.replace(/\{[^}]+\}/g, () => g.params[i++ % g.params.length]);
      const qs = g.query.map(([k, v]) => `${k}=${v}`).join('&');
      const headers: Record<string, string> = { 'x-requested-with': 'XMLHttpRequest', 'x-forwarded-for': g.address };
      if (g.signedIn) headers.cookie = cookie;
      if (g.signedIn && g.withCsrf) headers['x-csrf-token'] = csrf;
      if (g.tenant !== undefined) headers['x-tenant-id'] = g.tenant;
      if (g.bearer !== undefined) headers.authorization = `Bearer ${g.bearer.replace(/[^\x21-\x7e]/g, 'x')}`;
      const hasBody = g.body !== undefined && !['GET', 'HEAD'].includes(route.method);
      if (hasBody && g.type) headers['content-type'] = g.type;
      return { method: route.method, path: qs ? `${path}?${qs}` : path, headers, body: hasBody ? g.body : undefined };
    });
}

const isApi = (p: string) => !p.startsWith('/api/docs') && p !== '/' && !p.includes('*');

describe('OpenAPI-driven fuzzing', () => {
  const s = useTestServer({
    env: { TRUST_PROXY: 'loopback' },
    seed: { users: { alice: { password: 'Secret#123', email: 'alice@example.com' } }, signIn: ['alice'] },
  });
  const figures = { routes: 0, requests: 0, fiveHundreds: 0 };
  afterAll(() => {
    console.log(`fuzz: ${figures.routes} routes, ${figures.requests} requests, ${figures.fiveHundreds} × 5xx`);
  });

  it(`sends at least ${RUNS_PER_ROUTE} malformed requests to every documented route: no 5xx, one error shape`, async () => {
    const doc = (await s.clients.alice.req('GET', '/api/docs/json')).json as { paths: Record<string, object> };
    const routes: Route[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      if (!isApi(path) || (process.env.FUZZ_ROUTE && !path.includes(process.env.FUZZ_ROUTE))) continue;
      for (const method of Object.keys(ops)) {
        if (['get', 'post', 'put', 'delete', 'patch'].includes(method))
          routes.push({ method: method.toUpperCase(), path });
      }
    }
    if (!process.env.FUZZ_ROUTE) expect(routes.length).toBeGreaterThan(40);
    const port = Number(new URL(s.url).port);
    const alice = s.clients.alice;
    const cookie = alice.cookieHeader();
    const failures: string[] = [];
    for (const route of routes) {
      figures.routes++;
      await fc.assert(
        fc.asyncProperty(requestFor(route, cookie, alice.csrf ?? ''), async (r) => {
          const got = await send(port, r);
          figures.requests++;
          if (got.status >= 500) {
            figures.fiveHundreds++;
            failures.push(
              `${got.status} ${r.method} ${r.path.slice(0, 200)} ${JSON.stringify(r.headers).slice(0, 300)} ${got.text.slice(0, 200)}`,
            );
            return;
          }
          if (got.status >= 400 && r.path.match(/^\/(users|individual|uiless|api|objects|codeup|oapi)\//)) {
            const body = JSON.parse(got.text) as Record<string, unknown>;
            expect(Object.keys(body).sort(), `${r.method} ${r.path}`).toEqual([
              'code',
              'message',
              'requestId',
              'status',
            ]);
            expect(got.headers['x-content-type-options'], `${r.method} ${r.path}`).toBe('nosniff');
          }
        }),
        { numRuns: RUNS_PER_ROUTE, seed: SEED, endOnFailure: true },
      );
    }
    if (failures.length)
      console.log(
        s.logs
          .filter((l) => l.includes('"level":50'))
          .slice(0, 3)
          .join('\n'),
      );
    expect(failures).toEqual([]);
    // Still alive, and a new session works (the fuzzer's own may have been ended by a logout or a sign-in).
    const again = (await s.signIn('alice')).alice;
    expect((await again.req('GET', '/individual/proxy/me')).status).toBe(200);
    expectNoSecrets(s.logs, ['Secret#123', cookie, alice.csrf ?? '']);
  });

  it('refuses NUL characters in paths, queries and bodies with a 400 on both databases (PostgreSQL answered 500)', async () => {
    const { alice } = await s.signIn('alice');
    const check = await alice.req('GET', '/users/ajax/users/%00/check');
    expect([check.status, check.json.code]).toEqual([400, 'InvalidParameter']);
    const profile = await alice.req('PUT', '/individual/proxy/me', { body: { name: 'a\u0000b' } });
    expect([profile.status, profile.json.code]).toEqual([400, 'InvalidParameter']);
    const logs = await alice.req('POST', '/api/logs', { body: [{ 'k\u0000': 1 }] });
    expect([logs.status, logs.json.code]).toEqual([400, 'InvalidParameter']);
  });

  it('answers a user in no organisation who names an empty organisation id with a 400 (it was a 500)', async () => {
    const { alice } = await s.signIn('alice');
    const a = await alice.req('GET', '/uiless/api/organizations/');
    expect([a.status, a.json.code]).toEqual([400, 'InvalidParameter']);
  });
});
