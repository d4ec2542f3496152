import {
  createRequestClient,
  type RequestClient,
  type RequestClientOptions,
  type ServerErrorNotice,
} from '../../src/core/request';

/**
 * The one fake backend of web unit tests: a real request client whose injected fetch answers from a table of
 * `'METHOD /path'` handlers (`:name` segments match one path segment) and records every call, so a test
 * asserts what the page sent and what it showed, through the same client code the app runs.
 */

/** One call the fake backend received. */
export interface FakeCall {
  /** Upper-case HTTP method. */
  method: string;
  /** The path without query string. */
  path: string;
  /** Query parameters (arrays arrive comma-joined, as the client sends them). */
  query: Record<string, string>;
  /** JSON bodies parsed, form bodies as an object, FormData as is; undefined without a body. */
  body: unknown;
  /** Request headers as sent (names as the client wrote them). */
  headers: Record<string, string>;
}

/** A call as a handler sees it: the recorded call plus the `:name` segments of the matched route. */
export interface FakeRequest extends FakeCall {
  /** Values of the route's `:name` segments. */
  params: Record<string, string>;
}

/** An answer: status (200 by default), a JSON body, extra headers. */
export interface FakeResponse {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A route's answer: fixed, or computed from the request; a handler that throws is a network failure (status 0). */
export type FakeRoute = FakeResponse | ((request: FakeRequest) => FakeResponse | Promise<FakeResponse>);

/** Handlers keyed `'METHOD /path'`, e.g. `'PUT /users/ajax/v1/my/tokens/:id'`. */
export type FakeRoutes = Record<string, FakeRoute>;

/** A fake backend and the client that talks to it. */
export interface FakeBackend {
  /** A real request client whose fetch is the fake one. */
  client: RequestClient;
  /** The injected fetch, for code that takes a fetch directly. */
  fetch: typeof fetch;
  /** Every call, in order. */
  calls: FakeCall[];
  /** The system-exception notices the client showed (one per response ≥ 500). */
  notices: ServerErrorNotice[];
  /** Adds or replaces a handler. */
  on(key: string, route: FakeRoute): void;
  /** The calls that matched `'METHOD /path'` (same pattern rules as the handlers). */
  callsTo(key: string): FakeCall[];
}

/** A 200 answer with a JSON body. */
export function ok(body: unknown): FakeResponse {
  return { status: 200, body };
}

/** A failure in the service's one error shape `{ status, requestId, code, message }`. */
export function serviceError(status: number, code: string, message = code, requestId = `fake-${status}`): FakeResponse {
  return { status, body: { status, requestId, code, message } };
}

interface Pattern {
  key: string;
  method: string;
  segments: string[];
}

function parseKey(key: string): Pattern {
  const [method, path] = key.trim().split(/\s+/, 2);
  if (!method || !path?.startsWith('/')) throw new Error(`fake backend: route "${key}" must look like "GET /path"`);
  return { key, method: method.toUpperCase(), segments: path.split('/') };
}

function match(pattern: Pattern, method: string, path: string): Record<string, string> | null {
  if (pattern.method !== method) return null;
  const parts = path.split('/');
  if (parts.length !== pattern.segments.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const want = pattern.segments[i];
    if (want.startsWith(':')) params[want.slice(1)] = decodeURIComponent(parts[i]);
    else if (want !== parts[i]) return null;
  }
  return params;
}

function readBody(body: BodyInit | null | undefined): unknown {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') {
    try {
      return JSON.parse(body);
    } catch {
      return body;
    }
  }
  if (body instanceof URLSearchParams) return Object.fromEntries(body);
  return body;
}

function readHeaders(headers: HeadersInit | undefined): Record<string, string> {
  if (!headers) return {};
  if (headers instanceof Headers) return Object.fromEntries(headers.entries());
  if (Array.isArray(headers)) return Object.fromEntries(headers);
  return { ...headers };
}

/** Creates a fake backend answering from `routes`; an unknown route answers 404 in the service's error shape. */
export function fakeBackend(routes: FakeRoutes = {}, clientOptions: RequestClientOptions = {}): FakeBackend {
  const table: Array<{ pattern: Pattern; route: FakeRoute }> = [];
  const calls: FakeCall[] = [];
  const notices: ServerErrorNotice[] = [];
  const on = (key: string, route: FakeRoute) => {
    const pattern = parseKey(key);
    const i = table.findIndex((r) => r.pattern.key === key);
    if (i >= 0) table[i] = { pattern, route };
    else table.push({ pattern, route });
  };
  for (const [key, route] of Object.entries(routes)) on(key, route);

  const fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://fake.local');
    const call: FakeCall = {
      method: (init.method ?? 'GET').toUpperCase(),
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body: readBody(init.body),
      headers: readHeaders(init.headers),
    };
    calls.push(call);
    const found = table
      .map((r) => ({ route: r.route, params: match(r.pattern, call.method, call.path) }))
      .find((r) => r.params);
    const answer: FakeResponse = found
      ? typeof found.route === 'function'
        ? await found.route({ ...call, params: found.params! })
        : found.route
      : serviceError(404, 'NotFound', `no fake handler for ${call.method} ${call.path}`);
    const status = answer.status ?? 200;
    const text = answer.body === undefined ? null : JSON.stringify(answer.body);
    return new Response(status === 204 ? null : text, {
      status,
      headers: { 'content-type': 'application/json', ...answer.headers },
    });
  }) as typeof globalThis.fetch;

  const client = createRequestClient({
    fetch,
    showServerError: (notice) => notices.push(notice),
    ...clientOptions,
  });
  return {
    client,
    fetch,
    calls,
    notices,
    on,
    callsTo(key) {
      const pattern = parseKey(key);
      return calls.filter((c) => match(pattern, c.method, c.path));
    },
  };
}
