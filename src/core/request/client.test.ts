// @vitest-environment node
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRequestClient, type RequestClientOptions, type RequestOptions, type ServerErrorNotice } from './client';
import { CLIENT_STATUS, REQUEST_TIMEOUT_MS } from './constants';
import type { RequestError } from './errors';
import enUS from '../messages/en_US.json';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let server: http.Server;
let base: string;
const seen: Seen[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const path = req.url!.split('?')[0];
      const json = (status: number, data: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(data));
      };
      if (path === '/hang') return; // never answers
      if (path === '/ok') return json(200, { hello: 'world' });
      if (path === '/empty') {
        res.writeHead(204);
        return res.end();
      }
      if (path === '/text') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        return res.end('plain');
      }
      if (path === '/broken-json') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end('{not json');
      }
      if (path === '/fail500')
        return json(500, { status: 500, requestId: 'req-500', code: 'InternalError', message: 'boom' });
      if (path === '/fail503-header') return json(503, { message: 'down' }, { 'x-request-id': 'hdr-1' });
      if (path === '/fail400')
        return json(400, {
          status: 400,
          requestId: 'req-400',
          code: 'InvalidParam',
          message: 'bad name',
          field: 'name',
        });
      if (path === '/fail401')
        return json(401, { status: 401, requestId: 'req-401', code: 'Unauthorized', message: 'login' });
      if (path === '/uiless/api/workspace/list') return json(401, { message: 'no' });
      if (path === '/fail403-change')
        return json(403, { status: 403, requestId: 'r', code: 'PasswordChangeRequired', message: 'change it' });
      if (path === '/fail403') return json(403, { status: 403, requestId: 'r', code: 'Forbidden', message: 'no' });
      if (path.startsWith('/echo') || path.startsWith('/uiless/')) return json(200, { ok: true });
      json(404, { message: 'not found' });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((r) => server.close(() => r()));
});

function client(extra: RequestClientOptions = {}) {
  const showServerError = vi.fn<(n: ServerErrorNotice) => void>();
  const report = vi.fn();
  const onUnauthorized = vi.fn();
  const c = createRequestClient({ baseUrl: base, showServerError, report, onUnauthorized, ...extra });
  return { c, showServerError, report, onUnauthorized };
}

function last(): Seen {
  return seen[seen.length - 1];
}

describe('request client headers', () => {
  it('sends X-Requested-With on every call and CSRF only when configured', async () => {
    await client().c.get('/echo');
    expect(last().headers['x-requested-with']).toBe('XMLHttpRequest');
    expect(last().headers['x-csrf-token']).toBeUndefined();
    await client({ csrfToken: 'tok-1' }).c.post('/echo', { a: 1 });
    expect(last().headers['x-csrf-token']).toBe('tok-1');
  });

  it('sends the app language as Accept-Language once configured, read at call time', async () => {
    let lang = 'zh-CN';
    const { c } = client();
    c.configure({ language: () => lang });
    await c.get('/echo');
    expect(last().headers['accept-language']).toBe('zh-CN');
    lang = 'en-US';
    await c.get('/echo');
    expect(last().headers['accept-language']).toBe('en-US');
  });

  it('adds x-app-id and x-tenant-id only for /uiless/ URLs, reading the current organisation at call time', async () => {
    let org = 'org-1';
    const { c } = client({ appId: 'app-9', tenantId: () => org });
    await c.get('/echo');
    expect(last().headers['x-app-id']).toBeUndefined();
    expect(last().headers['x-tenant-id']).toBeUndefined();
    await c.get('/uiless/api/organizations/1');
    expect(last().headers['x-app-id']).toBe('app-9');
    expect(last().headers['x-tenant-id']).toBe('org-1');
    org = 'org-2';
    await c.put('/uiless/api/sdk/users/lastWorkspace', { organization_id: 'org-2' });
    expect(last().headers['x-tenant-id']).toBe('org-2');
  });

  it('lets the organisation be set on the client, winning over the configured one until reset', async () => {
    const { c } = client({ tenantId: () => 'page-org' });
    c.setTenantId('o7');
    await c.get('/uiless/api/apps/1');
    expect(last().headers['x-tenant-id']).toBe('o7');
    c.setTenantId('');
    await c.get('/uiless/api/apps/1');
    expect(last().headers['x-tenant-id']).toBe('');
    c.setTenantId(undefined);
    await c.get('/uiless/api/apps/1');
    expect(last().headers['x-tenant-id']).toBe('page-org');
    // A call made in another organisation's context names it itself.
    await c.put('/uiless/api/sdk/users/lastWorkspace', {}, { headers: { 'x-tenant-id': 'o9' } });
    expect(last().headers['x-tenant-id']).toBe('o9');
  });

  it('resolves paths against the configured host, with or without a leading slash', async () => {
    const { c } = client();
    await c.get('echo/a');
    expect(last().url).toBe('/echo/a');
    await c.get('/echo/b', { userIds: ['u1', 'u2'], skip: undefined, n: 3 });
    expect(last().url).toBe('/echo/b?userIds=u1%2Cu2&n=3');
  });
});

describe('request bodies', () => {
  it('sends JSON bodies with a JSON content type', async () => {
    await client().c.post('/echo', { name: 'x', n: 1 });
    expect(last().headers['content-type']).toBe('application/json');
    expect(JSON.parse(last().body)).toEqual({ name: 'x', n: 1 });
  });

  it('sends form-encoded bodies when asked', async () => {
    await client().c.request('/echo', { method: 'PUT', form: { language: 'en_US' } });
    expect(last().headers['content-type']).toContain('application/x-www-form-urlencoded');
    expect(last().body).toBe('language=en_US');
  });

  it('passes FormData through as multipart', async () => {
    const fd = new FormData();
    fd.append('file', new Blob(['img'], { type: 'image/png' }), 'a.png');
    await client().c.post('/echo', fd);
    expect(last().headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(last().body).toContain('filename="a.png"');
  });
});

describe('results', () => {
  it('returns [null, data] on success', async () => {
    expect(await client().c.get('/ok')).toEqual([null, { hello: 'world' }]);
    expect(await client().c.get('/empty')).toEqual([null, undefined]);
    expect(await client().c.get('/text')).toEqual([null, 'plain']);
  });

  it('returns the server data plus status on failure, never throwing', async () => {
    const { c, showServerError } = client();
    const [err, result] = await c.post('/fail400', { name: '' });
    expect(result).toBeUndefined();
    expect(err).toMatchObject({ status: 400, code: 'InvalidParam', requestId: 'req-400', message: 'bad name' });
    expect(err!.data).toEqual({
      status: 400,
      requestId: 'req-400',
      code: 'InvalidParam',
      message: 'bad name',
      field: 'name',
    });
    expect(showServerError).not.toHaveBeenCalled();
  });

  it('shows the system-exception notice (Chinese by default) with the requestId for status >= 500', async () => {
    const { c, showServerError } = client();
    const [err] = await c.get('/fail500');
    expect(err!.status).toBe(500);
    expect(showServerError).toHaveBeenCalledTimes(1);
    expect(showServerError.mock.calls[0][0]).toMatchObject({ title: '系统异常，请重试', requestId: 'req-500' });
  });

  it('titles the notice in the app locale once a translator is configured, and takes the requestId header as fallback', async () => {
    const { c, showServerError } = client();
    c.configure({ translate: (id) => (enUS as Record<string, string>)[id] });
    await c.get('/fail503-header');
    expect(showServerError.mock.calls[0][0]).toMatchObject({
      title: 'System exception, please try again',
      requestId: 'hdr-1',
    });
  });

  it('shows the notice for every status >= 500, whatever the call options (no call can hide it)', async () => {
    const { c, showServerError } = client();
    // @ts-expect-error -- the option that hid the notice is gone; an old caller passing it changes nothing
    const hide: RequestOptions = { silent: true };
    await c.get('/fail500', undefined, hide);
    await c.post('/fail503-header', { a: 1 }, { handleUnauthorized: false, timeoutMs: 1000 });
    expect(showServerError).toHaveBeenCalledTimes(2);
    expect(showServerError.mock.calls.map(([n]) => n.requestId)).toEqual(['req-500', 'hdr-1']);
  });

  it('calls onUnauthorized on 401 unless the call opts out', async () => {
    const { c, onUnauthorized } = client();
    await c.get('/fail401');
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect((onUnauthorized.mock.calls[0][0] as RequestError).status).toBe(401);
    await c.get('/fail401', undefined, { handleUnauthorized: false });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('calls onUnauthorized on 403 PasswordChangeRequired (the forced change comes first), not on other 403s', async () => {
    const { c, onUnauthorized } = client();
    await c.get('/fail403');
    expect(onUnauthorized).not.toHaveBeenCalled();
    await c.get('/fail403-change');
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('reports failures through the reporter, applying the ignore rules', async () => {
    const { c, report } = client();
    await c.get('/fail400');
    expect(report).toHaveBeenCalledTimes(1);
    await c.get('/uiless/api/workspace/list'); // 401 on a workspace request is expected
    expect(report).toHaveBeenCalledTimes(1);
  });

  it('survives hooks that throw', async () => {
    const c = createRequestClient({
      baseUrl: base,
      showServerError: () => {
        throw new Error('ui broke');
      },
      report: () => {
        throw new Error('reporter broke');
      },
    });
    const [err] = await c.get('/fail500');
    expect(err!.status).toBe(500);
  });
});

describe('client-side failures', () => {
  it('times out after 5000 ms by default with status -2 (timer injected, no waiting)', async () => {
    const timers: Array<{ fn: () => void; ms: number }> = [];
    const { c, report } = client({
      setTimer: (fn, ms) => {
        timers.push({ fn, ms });
        return () => {};
      },
    });
    const pending = c.get('/hang');
    await vi.waitFor(() => expect(seen.some((s) => s.url === '/hang')).toBe(true));
    expect(timers[0].ms).toBe(REQUEST_TIMEOUT_MS);
    expect(REQUEST_TIMEOUT_MS).toBe(5000);
    timers[0].fn();
    const [err] = await pending;
    expect(err!.status).toBe(CLIENT_STATUS.timeout);
    expect(err!.status).toBe(-2);
    expect(report).not.toHaveBeenCalled();
  });

  it('gives status -1 when the caller aborts', async () => {
    const ctrl = new AbortController();
    const pending = client().c.get('/hang', undefined, { signal: ctrl.signal });
    ctrl.abort();
    const [err] = await pending;
    expect(err!.status).toBe(-1);
  });

  it('gives status 0 when the network fails', async () => {
    const dead = http.createServer();
    await new Promise<void>((r) => dead.listen(0, '127.0.0.1', r));
    const port = (dead.address() as AddressInfo).port;
    await new Promise<void>((r) => dead.close(() => r()));
    const [err] = await createRequestClient({ baseUrl: `http://127.0.0.1:${port}` }).get('/x');
    expect(err!.status).toBe(0);
  });

  it('gives status -3 when a success response carries broken JSON', async () => {
    const [err] = await client().c.get('/broken-json');
    expect(err!.status).toBe(-3);
  });
});

describe('account events', () => {
  /** A client over a fetch that answers `status` with `x-account-events: told` (absent when undefined). */
  const over = (answers: Array<{ status: number; told?: string }>) => {
    let i = 0;
    const fetch = (async () => {
      const { status, told } = answers[i++ % answers.length];
      return new Response(JSON.stringify({ status, code: 'X', message: 'm' }), {
        status,
        headers: { 'content-type': 'application/json', ...(told === undefined ? {} : { 'x-account-events': told }) },
      });
    }) as typeof globalThis.fetch;
    return createRequestClient({ fetch, showServerError: () => {} });
  };

  it('tells its listeners of every answer that says the call wrote account events, failures too', async () => {
    const c = over([
      { status: 200, told: '1' },
      { status: 200 },
      { status: 200, told: '0' },
      { status: 423, told: '2' },
    ]);
    const heard = vi.fn();
    const broken = vi.fn(() => {
      throw new Error('a listener that throws changes no result');
    });
    const stopBroken = c.onAccountEvents(broken);
    const stop = c.onAccountEvents(heard);
    const [err] = await c.post('/a', {});
    expect(err).toBeNull();
    expect(heard).toHaveBeenCalledTimes(1);
    await c.post('/b', {});
    await c.post('/c', {});
    expect(heard).toHaveBeenCalledTimes(1);
    const [locked] = await c.post('/d', {});
    expect(locked!.status).toBe(423);
    expect(heard).toHaveBeenCalledTimes(2);
    stop();
    stopBroken();
    await c.post('/a', {});
    expect(heard).toHaveBeenCalledTimes(2);
    expect(broken).toHaveBeenCalledTimes(2);
  });
});

describe('re-authentication (403 ReauthRequired)', () => {
  /** A service whose sensitive call needs a proof until `proofs` were taken; it records what each call carried. */
  function service() {
    const calls: Array<{ url: string; csrf: string | undefined; body: unknown }> = [];
    let proved = false;
    const fetch = (async (url: string, init: RequestInit) => {
      const headers = init.headers as Record<string, string>;
      calls.push({ url, csrf: headers['X-CSRF-Token'], body: init.body ? JSON.parse(String(init.body)) : undefined });
      const json = (status: number, data: unknown) =>
        new Response(JSON.stringify(data), { status, headers: { 'content-type': 'application/json' } });
      if (!proved || headers['X-CSRF-Token'] !== 'rotated')
        return json(403, { status: 403, requestId: 'r', code: 'ReauthRequired', message: 'prove it' });
      return json(200, { made: true });
    }) as unknown as typeof globalThis.fetch;
    return { calls, fetch, prove: () => (proved = true) };
  }

  it('asks once for calls waiting together, then repeats each once with the rotated CSRF token', async () => {
    const svc = service();
    const reauthenticate = vi.fn(async () => {
      svc.prove();
      c.setCsrfToken('rotated');
      return true;
    });
    const { c, report } = client({ fetch: svc.fetch, csrfToken: 'page-token', reauthenticate });
    const [a, b] = await Promise.all([c.post('/tokens', { name: 'a' }), c.post('/keys', { name: 'b' })]);
    expect(a).toEqual([null, { made: true }]);
    expect(b).toEqual([null, { made: true }]);
    expect(reauthenticate).toHaveBeenCalledTimes(1);
    // Each sent once as it was and once after the proof (in whichever order the answers came back).
    const sent = svc.calls.map((x) => [x.url.replace(base, ''), x.csrf, x.body]);
    expect(sent.slice(0, 2)).toEqual([
      ['/tokens', 'page-token', { name: 'a' }],
      ['/keys', 'page-token', { name: 'b' }],
    ]);
    expect(sent.slice(2)).toEqual(
      expect.arrayContaining([
        ['/tokens', 'rotated', { name: 'a' }],
        ['/keys', 'rotated', { name: 'b' }],
      ]),
    );
    expect(sent).toHaveLength(4);
    expect(report).not.toHaveBeenCalled();
  });

  it('hands the error to the caller when the member cancels, and repeats nothing', async () => {
    const svc = service();
    const reauthenticate = vi.fn(async () => false);
    const { c, showServerError } = client({ fetch: svc.fetch, reauthenticate });
    const [error] = await c.post('/tokens', {});
    expect([error?.status, error?.code]).toEqual([403, 'ReauthRequired']);
    expect(svc.calls).toHaveLength(1);
    expect(showServerError).not.toHaveBeenCalled();
  });

  it('repeats once, without a redirect, a call answered for the old cookie while a proof rotated the session', async () => {
    const csrfs: Array<string | undefined> = [];
    const fetch = (async (_url: string, init: RequestInit) => {
      const csrf = (init.headers as Record<string, string>)['X-CSRF-Token'];
      csrfs.push(csrf);
      // The proof's answer (a new cookie and token) lands while this call is on its way with the old cookie.
      if (csrf === 'page-token') {
        c.setCsrfToken('rotated');
        return new Response(JSON.stringify({ code: 'Unauthorized' }), {
          status: 401,
          headers: { 'content-type': 'application/json' },
        });
      }
      return new Response(JSON.stringify({ count: 3 }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    }) as unknown as typeof globalThis.fetch;
    const { c, onUnauthorized } = client({ fetch, csrfToken: 'page-token' });
    expect(await c.get('/inbox/count')).toEqual([null, { count: 3 }]);
    expect(csrfs).toEqual(['page-token', 'rotated']);
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('asks at most once per call: a repeat answered ReauthRequired again goes to the caller', async () => {
    const svc = service();
    // The dialog says it was proved, but the service still wants a proof (e.g. the window is set to end at once).
    const reauthenticate = vi.fn(async () => true);
    const { c } = client({ fetch: svc.fetch, reauthenticate });
    const [error] = await c.post('/tokens', {});
    expect(error?.code).toBe('ReauthRequired');
    expect(reauthenticate).toHaveBeenCalledTimes(1);
    expect(svc.calls).toHaveLength(2);
    // A call that asks for no proof (the proof call itself) gets the answer as it is.
    await c.post('/proof', {}, { reauth: false });
    expect(reauthenticate).toHaveBeenCalledTimes(1);
  });
});
