import zhCN from '../messages/zh_CN.json';
import { ACCOUNT_EVENTS_HEADER } from '../../../schemas/account-events';
import { plainText } from '../i18n/plain-text';
import type { MessageCatalogue } from '../plugin';
import {
  CLIENT_STATUS,
  PASSWORD_CHANGE_REQUIRED,
  REAUTH_REQUIRED,
  REQUEST_TIMEOUT_MS,
  SERVER_ERROR_MIN_STATUS,
  UILESS_MARKER,
} from './constants';
import { errorCodeOf, RequestError, shouldReport, type RequestInfo } from './errors';

/** Every call resolves to this pair instead of throwing, so callers handle failure where it happens. */
export type RequestResult<T> = [RequestError, undefined] | [null, T];

/** HTTP methods the app uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Query values; arrays are sent comma-joined (`userIds=a,b`), empty values are dropped. */
export type QueryValue = string | number | boolean | null | undefined | ReadonlyArray<string | number>;

/** Per-call options. */
export interface RequestOptions {
  /** Defaults to GET. */
  method?: HttpMethod;
  /** Appended to the URL as a query string. */
  query?: Record<string, QueryValue>;
  /** Sent as JSON; FormData, URLSearchParams and Blob pass through untouched (uploads). */
  body?: unknown;
  /** Sent form-encoded instead of `body`, for legacy endpoints that only read forms. */
  form?: Record<string, string | number | boolean>;
  /** Extra headers; they win over the defaults. */
  headers?: Record<string, string>;
  /** Overrides the 5000 ms default for this call. */
  timeoutMs?: number;
  /** Lets the caller cancel; a cancelled call yields status -1. */
  signal?: AbortSignal;
  /** Set false on calls where a 401 is an answer (e.g. a password check), not a lost session. */
  handleUnauthorized?: boolean;
  /**
   * Set false where a 403 ReauthRequired is the answer itself (the proof call, the repeat after one): otherwise the
   * client asks for the proof (`RequestHooks.reauthenticate`) and repeats the call once.
   */
  reauth?: boolean;
  /** Set on the one repeat of a call that was answered for a session cookie a proof had just rotated. */
  afterRotation?: boolean;
}

/** What the server-error display needs to show. */
export interface ServerErrorNotice {
  /** Already translated 'System exception, please try again'. */
  title: string;
  /** The server's requestId, shown so support can find the failing request. */
  requestId?: string;
  /** The full error, for displays that want more. */
  error: RequestError;
}

/** Hooks the app swaps in once it knows its locale, router and reporter. */
export interface RequestHooks {
  /** Translates a message id in the current app locale; defaults to the Chinese catalogue. */
  translate: (id: string) => string;
  /** Shows a ≥500 failure to the user; defaults to an antd notification. */
  showServerError: (notice: ServerErrorNotice) => void;
  /** Receives failures that survive `shouldReport`; defaults to nothing. */
  report: (error: RequestError, request: RequestInfo) => void;
  /**
   * Called on a 401, and on a 403 PasswordChangeRequired, so the app can send the user to the edition's re-login
   * path (whose sign-in asks for the forced password change).
   */
  onUnauthorized: (error: RequestError) => void;
  /** The app language as a BCP 47 tag, sent as Accept-Language so server messages match the UI. */
  language: () => string | undefined;
  /**
   * Called on a 403 ReauthRequired (a sensitive call without a recent proof): asks the member to prove it is them
   * (../reauth: the core's dialog) and resolves true once a proof was taken, so the call is repeated; false when
   * they cancelled (the caller then gets the error, and shows nothing more). Calls waiting at once share one ask.
   */
  reauthenticate: (error: RequestError) => Promise<boolean>;
}

/** Setup of one client. */
export interface RequestClientOptions extends Partial<RequestHooks> {
  /** Base URL (the page config's `host`); empty means same origin. */
  baseUrl?: string;
  /** Value of `X-CSRF-Token`; a function so a refreshed token is picked up. */
  csrfToken?: string | (() => string | undefined);
  /** `x-app-id` for `/uiless/` calls. */
  appId?: string | (() => string | undefined);
  /** Current organisation id, `x-tenant-id` for `/uiless/` calls; a function because the user can switch. */
  tenantId?: string | (() => string | undefined);
  /** Default timeout of every call. */
  timeoutMs?: number;
  /** The fetch to use; the global one unless a test injects another. */
  fetch?: typeof fetch;
  /** Timer used for timeouts; injectable so tests fire it without waiting. */
  setTimer?: (fn: () => void, ms: number) => () => void;
}

/** The one request client of the app. */
export interface RequestClient {
  /** Performs a call; never throws. */
  request<T = unknown>(url: string, options?: RequestOptions): Promise<RequestResult<T>>;
  /** GET with an optional query. */
  get<T = unknown>(url: string, query?: RequestOptions['query'], options?: RequestOptions): Promise<RequestResult<T>>;
  /** POST with a JSON (or FormData) body. */
  post<T = unknown>(url: string, body?: unknown, options?: RequestOptions): Promise<RequestResult<T>>;
  /** PUT with a JSON body. */
  put<T = unknown>(url: string, body?: unknown, options?: RequestOptions): Promise<RequestResult<T>>;
  /** PATCH with a JSON body. */
  patch<T = unknown>(url: string, body?: unknown, options?: RequestOptions): Promise<RequestResult<T>>;
  /** DELETE, optionally with a body. */
  delete<T = unknown>(url: string, body?: unknown, options?: RequestOptions): Promise<RequestResult<T>>;
  /** Replaces hooks after creation (e.g. when the locale or router becomes known). */
  configure(hooks: Partial<RequestHooks>): void;
  /** Builds the absolute URL a path resolves to; exposed for links that bypass fetch. */
  resolveUrl(url: string, query?: RequestOptions['query']): string;
  /**
   * Sets the organisation later `/uiless/` calls carry as `x-tenant-id`, winning over the configured one, so a switch
   * or a session load takes effect without a reload; '' means none, undefined goes back to the configured one.
   */
  setTenantId(id: string | undefined): void;
  /**
   * Sets the CSRF token later calls carry, winning over the configured one: a re-authentication rotates the session
   * and its token (the page's own token is then stale).
   */
  setCsrfToken(token: string): void;
  /**
   * Calls `listener` after each answer that says the call wrote account events to the signed-in user (the service's
   * `x-account-events`, success or failure alike), so what shows them (the bell) refreshes without knowing which
   * slice wrote. Returns the unsubscribe function.
   */
  onAccountEvents(listener: () => void): () => void;
}

/** Default translator: the Chinese catalogue, the app's default locale. */
export function defaultTranslate(id: string): string {
  const message = (zhCN as MessageCatalogue)[id];
  return message === undefined ? id : plainText(message);
}

/** Default ≥500 display: an antd notification titled in the app locale with the requestId as content. */
export function defaultShowServerError({ title, requestId }: ServerErrorNotice): void {
  // Loaded on first use so the notification code stays out of the initial bundle.
  import(/* webpackChunkName: "core-notification" */ 'antd/es/notification')
    .then(({ default: notification }) =>
      notification.error({ title, description: requestId, key: 'core.request.serverError' }),
    )
    .catch(() => {});
}

function value<T>(v: T | (() => T) | undefined): T | undefined {
  return typeof v === 'function' ? (v as () => T)() : v;
}

/** Normalises a configured host into a base URL; a bare host name gets the page's protocol. */
export function normalizeBaseUrl(host: string | undefined): string {
  const h = (host ?? '').trim();
  if (!h) return '';
  let base = h;
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(h) && !h.startsWith('//')) {
    const protocol =
      typeof location !== 'undefined' && location.protocol.startsWith('http') ? location.protocol : 'https:';
    base = `${protocol}//${h}`;
  }
  return base.replace(/\/+$/, '');
}

/** Joins base and path; absolute URLs are left alone; query arrays are comma-joined. */
export function buildUrl(baseUrl: string, url: string, query?: RequestOptions['query']): string {
  let out: string;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url) || url.startsWith('//')) out = url;
  else out = `${baseUrl}/${url.replace(/^\/+/, '')}`;
  if (query) {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) {
      if (v === undefined || v === null || v === '') continue;
      params.append(k, Array.isArray(v) ? v.join(',') : String(v));
    }
    const qs = params.toString();
    if (qs) out += (out.includes('?') ? '&' : '?') + qs;
  }
  return out;
}

function isPassthroughBody(body: unknown): body is BodyInit {
  return (
    (typeof FormData !== 'undefined' && body instanceof FormData) ||
    (typeof URLSearchParams !== 'undefined' && body instanceof URLSearchParams) ||
    (typeof Blob !== 'undefined' && body instanceof Blob) ||
    body instanceof ArrayBuffer ||
    typeof body === 'string'
  );
}

async function readBody(res: Response): Promise<{ ok: true; data: unknown } | { ok: false; text: string }> {
  const text = await res.text();
  if (!text) return { ok: true, data: undefined };
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return { ok: true, data: JSON.parse(text) };
    } catch {
      return { ok: false, text };
    }
  }
  return { ok: true, data: text };
}

function pick(data: unknown, key: string): string | undefined {
  if (data && typeof data === 'object' && key in data) {
    const v = (data as Record<string, unknown>)[key];
    if (typeof v === 'string' || typeof v === 'number') return String(v);
  }
  return undefined;
}

/** Creates an independent client; the app uses `getRequestClient()`, tests create their own. */
export function createRequestClient(options: RequestClientOptions = {}): RequestClient {
  const baseUrl = normalizeBaseUrl(options.baseUrl);
  let tenantOverride: string | undefined;
  let csrfOverride: string | undefined;
  // Counts session rotations (re-authentication): a call sent before one may carry the old cookie.
  let rotations = 0;
  let reauthInFlight: Promise<boolean> | undefined;
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const accountEventListeners = new Set<() => void>();
  const hooks: RequestHooks = {
    translate: options.translate ?? defaultTranslate,
    showServerError: options.showServerError ?? defaultShowServerError,
    report: options.report ?? (() => {}),
    onUnauthorized: options.onUnauthorized ?? (() => {}),
    language: options.language ?? (() => undefined),
    reauthenticate:
      options.reauthenticate ??
      ((error) =>
        import(/* webpackChunkName: "core-reauth" */ '../reauth')
          .then(({ reauthenticate }) => reauthenticate(client, hooks.translate, error))
          .catch(() => false)),
  };
  const setTimer =
    options.setTimer ??
    ((fn: () => void, ms: number) => {
      const id = setTimeout(fn, ms);
      return () => clearTimeout(id);
    });

  function safely(fn: () => void): void {
    try {
      fn();
    } catch {
      // hooks are UI/reporting side effects; they must never turn a result into a throw
    }
  }

  function fail(error: RequestError, opts: RequestOptions): [RequestError, undefined] {
    const info: RequestInfo = { url: error.url, method: error.method };
    // Every response ≥ 500 shows the notice with its requestId; no call may hide it (callers show nothing more).
    if (error.status >= SERVER_ERROR_MIN_STATUS) {
      safely(() =>
        hooks.showServerError({
          title: hooks.translate('core.request.systemException'),
          requestId: error.requestId,
          error,
        }),
      );
    }
    if (error.status === 401 && opts.handleUnauthorized !== false) safely(() => hooks.onUnauthorized(error));
    // The service answers a user who must change the password first this way everywhere: to the sign-in page, whose
    // sign-in leads to the change.
    if (error.status === 403 && errorCodeOf(error) === PASSWORD_CHANGE_REQUIRED)
      safely(() => hooks.onUnauthorized(error));
    if (shouldReport(error, info)) safely(() => hooks.report(error, info));
    return [error, undefined];
  }

  async function request<T>(url: string, opts: RequestOptions = {}): Promise<RequestResult<T>> {
    const method = opts.method ?? 'GET';
    let fullUrl = url;
    try {
      fullUrl = buildUrl(baseUrl, url, opts.query);
    } catch {
      // buildUrl only throws on exotic query values; fall through with the raw URL
    }
    const headers: Record<string, string> = { 'X-Requested-With': 'XMLHttpRequest' };
    const language = hooks.language();
    if (language) headers['Accept-Language'] = language;
    const rotationsAtSend = rotations;
    const csrf = csrfOverride ?? value(options.csrfToken);
    if (csrf) headers['X-CSRF-Token'] = csrf;
    if (fullUrl.includes(UILESS_MARKER)) {
      headers['x-app-id'] = value(options.appId) ?? '';
      headers['x-tenant-id'] = tenantOverride ?? value(options.tenantId) ?? '';
    }
    let body: BodyInit | undefined;
    if (opts.form) {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(opts.form)) params.append(k, String(v));
      body = params;
      headers['Content-Type'] = 'application/x-www-form-urlencoded;charset=UTF-8';
    } else if (opts.body !== undefined) {
      if (isPassthroughBody(opts.body)) body = opts.body;
      else {
        body = JSON.stringify(opts.body);
        headers['Content-Type'] = 'application/json';
      }
    }
    Object.assign(headers, opts.headers);

    const controller = new AbortController();
    let timedOut = false;
    const cancelTimer = setTimer(() => {
      timedOut = true;
      controller.abort();
    }, opts.timeoutMs ?? timeoutMs);
    const onCallerAbort = () => controller.abort();
    if (opts.signal) {
      if (opts.signal.aborted) controller.abort();
      else opts.signal.addEventListener('abort', onCallerAbort, { once: true });
    }
    const clientError = (status: number, message: string) =>
      new RequestError({ status, message, url: fullUrl, method });

    try {
      const doFetch = options.fetch ?? globalThis.fetch;
      let res: Response;
      try {
        res = await doFetch(fullUrl, { method, headers, body, signal: controller.signal, credentials: 'include' });
      } catch (e) {
        if (timedOut)
          return fail(clientError(CLIENT_STATUS.timeout, `timeout of ${opts.timeoutMs ?? timeoutMs}ms exceeded`), opts);
        if (controller.signal.aborted) return fail(clientError(CLIENT_STATUS.aborted, 'request aborted'), opts);
        return fail(clientError(CLIENT_STATUS.network, e instanceof Error ? e.message : 'network error'), opts);
      }
      if (Number(res.headers.get(ACCOUNT_EVENTS_HEADER)) > 0)
        for (const listener of [...accountEventListeners]) safely(listener);
      let parsed: Awaited<ReturnType<typeof readBody>>;
      try {
        parsed = await readBody(res);
      } catch (e) {
        if (timedOut)
          return fail(clientError(CLIENT_STATUS.timeout, `timeout of ${opts.timeoutMs ?? timeoutMs}ms exceeded`), opts);
        if (controller.signal.aborted) return fail(clientError(CLIENT_STATUS.aborted, 'request aborted'), opts);
        return fail(clientError(CLIENT_STATUS.network, e instanceof Error ? e.message : 'network error'), opts);
      }
      const headerRequestId = res.headers.get('x-request-id') ?? undefined;
      // Sent with the session's old cookie while a proof rotated it: the session is there, ask again with the new one.
      if ((res.status === 401 || res.status === 403) && rotationsAtSend !== rotations && !opts.afterRotation)
        return request<T>(url, { ...opts, afterRotation: true });
      if (res.ok) {
        if (!parsed.ok) {
          const err = clientError(CLIENT_STATUS.other, 'invalid JSON in response');
          err.requestId = headerRequestId;
          err.data = parsed.text;
          return fail(err, opts);
        }
        return [null, parsed.data as T];
      }
      const data = parsed.ok ? parsed.data : parsed.text;
      const message =
        pick(data, 'message') ?? (typeof data === 'string' && data ? data : res.statusText || `HTTP ${res.status}`);
      const error = new RequestError({
        status: res.status,
        message,
        url: fullUrl,
        method,
        code: pick(data, 'code'),
        requestId: pick(data, 'requestId') ?? headerRequestId,
        data,
      });
      if (res.status === 403 && errorCodeOf(error) === REAUTH_REQUIRED && opts.reauth !== false) {
        // One ask for every call waiting at once; proved, the call goes again once, as if nothing had happened.
        reauthInFlight ??= hooks.reauthenticate(error).finally(() => (reauthInFlight = undefined));
        let proved = false;
        try {
          proved = await reauthInFlight;
        } catch {
          // a failing dialog is a cancelled one
        }
        if (proved) return request<T>(url, { ...opts, reauth: false });
      }
      return fail(error, opts);
    } catch (e) {
      return fail(clientError(CLIENT_STATUS.other, e instanceof Error ? e.message : String(e)), opts);
    } finally {
      cancelTimer();
      opts.signal?.removeEventListener('abort', onCallerAbort);
    }
  }

  const client: RequestClient = {
    request,
    get: (url, query, o) => request(url, { ...o, method: 'GET', query: { ...o?.query, ...query } }),
    post: (url, body, o) => request(url, { ...o, method: 'POST', body }),
    put: (url, body, o) => request(url, { ...o, method: 'PUT', body }),
    patch: (url, body, o) => request(url, { ...o, method: 'PATCH', body }),
    delete: (url, body, o) => request(url, { ...o, method: 'DELETE', body }),
    configure(next) {
      for (const [k, v] of Object.entries(next)) if (v) (hooks as unknown as Record<string, unknown>)[k] = v;
    },
    resolveUrl: (url, query) => buildUrl(baseUrl, url, query),
    setTenantId(id) {
      tenantOverride = id;
    },
    setCsrfToken(token) {
      csrfOverride = token;
      rotations += 1;
    },
    onAccountEvents(listener) {
      const own = () => listener();
      accountEventListeners.add(own);
      return () => void accountEventListeners.delete(own);
    },
  };
  return client;
}
