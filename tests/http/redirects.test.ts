import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { useTestServer, type TestServer } from '../kit/server';
import {
  CORPUS_APP_ORIGIN,
  CORPUS_ORIGIN,
  isAbsoluteTarget,
  REDIRECT_CORPUS,
  type RedirectCase,
} from '../fixtures/redirect-corpus';
import { listedRedirectOrigins, safeNextTarget, type RedirectScope } from '../../schemas/redirect-rule';
import { NEXT_URL_MAX } from '../../plugins/login/limits';

/** One logout answer: the status and the Location header (null when none). */
interface Redirect {
  status: number;
  location: string | null;
}

/** `GET /users/logout?next=<payload>` over real HTTP, with a Host header of our choosing (forged or the real one). */
function logout(s: TestServer, payload: string, host?: string): Promise<Redirect> {
  const { hostname, port } = new URL(s.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        hostname,
        port,
        method: 'GET',
        path: `/users/logout?next=${encodeURIComponent(payload)}`,
        headers: host ? { host } : {},
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location ?? null }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** True when a Location stays on one of `origins` or is a path on the service's own origin. */
function staysHome(location: string, origins: readonly string[]): boolean {
  if (!isAbsoluteTarget(location)) return location.startsWith('/') && !/^\/[/\\]/.test(location);
  return origins.includes(new URL(location).origin);
}

/**
 * Checks every corpus row over HTTP: the Location is the rule's target when `expected` gives one, else the edition's
 * re-login path (a payload longer than the query schema allows, or with a NUL, is refused with 400 first). Returns the
 * number of payloads followed.
 */
async function checkCorpus(
  s: TestServer,
  expected: (c: RedirectCase) => string | null,
  origins: readonly string[],
  host?: string,
): Promise<number> {
  const relogin = s.ctx.edition.paths.relogin;
  let followed = 0;
  const wrong: string[] = [];
  for (const c of REDIRECT_CORPUS) {
    const r = await logout(s, c.payload, host);
    // Overlong payloads break the query schema, NUL characters every request's validation: 400 before the handler.
    if (c.payload.length > NEXT_URL_MAX || c.payload.includes('\u0000')) {
      if (r.status !== 400 && !(r.status === 302 && r.location === relogin)) wrong.push(`${c.why}: ${r.status}`);
      continue;
    }
    const want = expected(c) ?? relogin;
    if (r.status !== 302 || r.location !== want)
      wrong.push(`${c.why} (${JSON.stringify(c.payload)}): ${r.status} ${r.location}`);
    if (r.location && r.location !== relogin) {
      followed++;
      if (!staysHome(r.location, origins)) wrong.push(`${c.why}: left for ${r.location}`);
    }
  }
  expect(wrong).toEqual([]);
  return followed;
}

const accepted = REDIRECT_CORPUS.filter((c) => c.target !== null);
const acceptedPaths = accepted.filter((c) => !isAbsoluteTarget(c.target!));

describe('the redirect rule over the corpus', () => {
  const scope = { origin: CORPUS_ORIGIN, allowedOrigins: [CORPUS_APP_ORIGIN] };

  it('has at least 80 payloads, each with its verdict', () => {
    expect(REDIRECT_CORPUS.length).toBeGreaterThanOrEqual(80);
    expect(new Set(REDIRECT_CORPUS.map((c) => c.payload)).size).toBe(REDIRECT_CORPUS.length);
  });

  it.each(REDIRECT_CORPUS.map((c) => [c.why, c] as const))('%s', (_why, c) => {
    expect(safeNextTarget(c.payload, scope)).toBe(c.target);
  });

  it('hands out ASCII only, never an authority in front of a path, never a foreign origin', () => {
    for (const c of REDIRECT_CORPUS) {
      for (const s of [scope, { origin: CORPUS_ORIGIN }, {}] as RedirectScope[]) {
        const got = safeNextTarget(c.payload, s);
        if (got === null) continue;
        expect(got, c.payload).toMatch(/^[\x21-\x7e]+$/);
        expect(staysHome(got, listedRedirectOrigins([s.origin, ...(s.allowedOrigins ?? [])])), c.payload).toBe(true);
      }
    }
  });

  it('without an origin only paths pass; the origin is exact (scheme, host, port)', () => {
    for (const c of accepted) expect(safeNextTarget(c.payload, {})).toBe(isAbsoluteTarget(c.target!) ? null : c.target);
    const local = { origin: 'http://127.0.0.1:8080' };
    expect(safeNextTarget('http://127.0.0.1:8080/x', local)).toBe('http://127.0.0.1:8080/x');
    for (const other of [
      'http://127.0.0.1:9999/',
      'https://127.0.0.1:8080/',
      'http://localhost:8080/',
      'http://[::1]:8080/',
    ])
      expect(safeNextTarget(other, local), other).toBeNull();
    expect(safeNextTarget(42, local)).toBeNull();
    expect(safeNextTarget('https://x.example/', { origin: 'javascript:alert(1)' })).toBeNull();
  });
});

describe('logout redirects without PUBLIC_URL: paths only', () => {
  const s = useTestServer();

  it('follows the corpus paths and nothing absolute, whatever the Host header says', async () => {
    const expected = (c: RedirectCase) => (c.target && !isAbsoluteTarget(c.target) ? c.target : null);
    expect(await checkCorpus(s, expected, [])).toBe(acceptedPaths.length);
    // A forged Host header naming the corpus origin does not make it acceptable.
    expect(await checkCorpus(s, expected, [], new URL(CORPUS_ORIGIN).host)).toBe(acceptedPaths.length);
  });

  it('no longer follows the same host name on any port or scheme (the finding)', async () => {
    const relogin = s.ctx.edition.paths.relogin;
    const { host, port } = new URL(s.url);
    for (const next of [`${s.url}/users/settings`, 'http://127.0.0.1:9999/', `https://127.0.0.1:${port}/`]) {
      expect((await logout(s, next)).location, next).toBe(relogin);
      expect((await logout(s, next, host)).location, next).toBe(relogin);
    }
    // The Host header names itself: still not acceptable.
    expect((await logout(s, 'http://evil.example/', 'evil.example')).location).toBe(relogin);
    expect((await logout(s, 'https://evil.example:8443/x', 'evil.example:8443')).location).toBe(relogin);
  });

  it('answers a non-Latin1 path percent-encoded (no header crash)', async () => {
    expect(await logout(s, '/users/settings/中')).toEqual({ status: 302, location: '/users/settings/%E4%B8%AD' });
    expect(await logout(s, '/∕evil.com')).toEqual({ status: 302, location: '/%E2%88%95evil.com' });
  });
});

describe('logout redirects with an https PUBLIC_URL', () => {
  const s = useTestServer({ env: { PUBLIC_URL: CORPUS_ORIGIN } });
  const onApp = (target: string | null) => !!target && target.startsWith(`${CORPUS_APP_ORIGIN}/`);

  it('follows exactly the corpus verdicts for its origin, with the real or a forged Host header', async () => {
    // The edition lists no absolute app address: the corpus's app origin is refused like any other.
    const expected = (c: RedirectCase) => (onApp(c.target) ? null : c.target);
    const followed = accepted.filter((c) => !onApp(c.target)).length;
    for (const host of [undefined, 'evil.com', 'devops.example.com:8443', 'api.devops.example.com', '127.0.0.1:9999'])
      expect(await checkCorpus(s, expected, [CORPUS_ORIGIN], host)).toBe(followed);
  });

  it('does not follow a downgrade to http on another port, nor the forged host itself', async () => {
    const relogin = s.ctx.edition.paths.relogin;
    for (const next of [
      'http://devops.example.com:8080/',
      'http://devops.example.com/',
      'https://devops.example.com:8443/',
    ])
      expect((await logout(s, next)).location, next).toBe(relogin);
    expect((await logout(s, 'https://evil.example/', 'evil.example')).location).toBe(relogin);
    expect((await logout(s, `https://127.0.0.1:${new URL(s.url).port}/`)).location).toBe(relogin);
  });

  // Needs the logout route to pass its context: `safeNextUrl(req.query.next, ctx)` (plugins/login/server/routes.ts).
  it('follows the exact origins of the edition’s app addresses too', async () => {
    const codeup = s.ctx.edition.appSwitcher.find((a) => a.key === 'codeup')!;
    const listed = codeup.url;
    codeup.url = `${CORPUS_APP_ORIGIN}/`;
    try {
      for (const host of [undefined, 'evil.com'])
        expect(await checkCorpus(s, (c) => c.target, [CORPUS_ORIGIN, CORPUS_APP_ORIGIN], host)).toBe(accepted.length);
    } finally {
      if (listed === undefined) delete codeup.url;
      else codeup.url = listed;
    }
  });
});
