// A real OAuth 2.0 / OpenID Connect provider for the third-party sign-in tests: `oidc-provider` on a free loopback
// port (authorisation code flow only, PKCE S256 required, client_secret_post by default), with its development login
// and consent pages (any login name signs in). HTTP tests complete those pages with `authorize()`; the e2e drives them
// in Chromium.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One registered client (the service's configuration for a provider). */
export interface TestOAuthClient {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  /** How the client authenticates at the token endpoint; default `client_secret_post` (form body), as the service. */
  tokenAuthMethod?: 'client_secret_post' | 'client_secret_basic';
}

export interface TestOAuthProviderOptions {
  clients: TestOAuthClient[];
  /**
   * Claims by account id (the login name typed on the login page), besides `sub` (the id) and `name` (the id unless
   * given). All of them are returned by the user-info endpoint for the `openid` scope: configure the service with
   * scope `openid` (the provider answers user info only to OpenID requests).
   */
  accounts?: Record<string, Record<string, unknown>>;
}

/** The running provider. */
export interface TestOAuthProvider {
  /** `http://127.0.0.1:<port>`. */
  issuer: string;
  port: number;
  /** The endpoints from the provider's discovery document. */
  authorizeUrl: string;
  tokenUrl: string;
  userinfoUrl: string;
  /** The claims by account (mutable: a test may change what the next sign-in reads). */
  accounts: Record<string, Record<string, unknown>>;
  /** Requests the provider received (method and path with query), oldest first; tests may empty it. */
  requests: Array<{ method: string; path: string }>;
  /** Errors the provider reported (server errors and refused requests: `invalid_grant`, …), oldest first. */
  errors: Array<{ event: string; error: string; description?: string }>;
  /**
   * Completes the provider's pages by HTTP, as a browser would, for the authorize URL the service redirected to (with
   * its state and PKCE challenge): signs in as `login`, then consents (or, with `deny`, cancels the consent). Returns
   * the final redirect's `Location` (the service's callback URL with `code` and `state`, or with `error`) without
   * following it. Each call is a new browser (its own cookies).
   */
  authorize(startUrl: string, login: string, options?: { deny?: boolean }): Promise<string>;
  /** Stops the provider (open connections are cut). Idempotent. */
  stop(): Promise<void>;
}

type ProviderInstance = {
  callback(): (req: http.IncomingMessage, res: http.ServerResponse) => void;
  on(event: string, listener: (...args: unknown[]) => void): void;
};
type ProviderClass = new (issuer: string, configuration: Record<string, unknown>) => ProviderInstance;

/** Runs `fn` with oidc-provider's development notices (console.warn / console.info) silenced. */
async function quietly<T>(fn: () => Promise<T> | T): Promise<T> {
  const { warn, info } = console;
  const keep =
    (original: (...args: unknown[]) => void) =>
    (...args: unknown[]) => {
      if (typeof args[0] === 'string' && args[0].includes('oidc-provider')) return;
      original.apply(console, args);
    };
  console.warn = keep(warn);
  console.info = keep(info);
  try {
    return await fn();
  } finally {
    console.warn = warn;
    console.info = info;
  }
}

let providerClass: Promise<ProviderClass> | undefined;
/** Loads oidc-provider once (its import warns "Unsupported runtime" below Node 22: silenced). */
function loadProvider(): Promise<ProviderClass> {
  providerClass ??= quietly(async () => {
    // @ts-expect-error -- oidc-provider ships no type declarations; the shape used here is ProviderClass
    const mod = (await import('oidc-provider')) as { default: ProviderClass };
    return mod.default;
  });
  return providerClass;
}

/** A minimal cookie jar for one simulated browser on the provider (names are unique across its paths). */
class CookieJar {
  private readonly cookies = new Map<string, string>();
  store(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq < 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => {
        const [k, v = ''] = a.trim().split('=');
        if (k.toLowerCase() === 'max-age') return Number(v) <= 0;
        if (k.toLowerCase() === 'expires') return Date.parse(v) <= Date.now();
        return false;
      });
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/** The form of a development interaction page: where it posts and its hidden `prompt`. */
function parseForm(html: string, base: string): { action: string; prompt: string; abort?: string } {
  const action = /<form[^>]*action="([^"]+)"[^>]*method="post"/i.exec(html)?.[1];
  const prompt = /name="prompt" value="([^"]+)"/i.exec(html)?.[1];
  if (!action || !prompt) throw new Error(`no interaction form on the provider's page:\n${html.slice(0, 2000)}`);
  const abort = /<a[^>]*href="([^"]*\/abort)"/i.exec(html)?.[1];
  const unescape = (s: string) =>
    s
      .replace(/&amp;/g, '&')
      .replace(/&#x2F;/gi, '/')
      .replace(/&#47;/g, '/');
  return {
    action: new URL(unescape(action), base).href,
    prompt,
    abort: abort ? new URL(unescape(abort), base).href : undefined,
  };
}

/**
 * Starts the provider on a free loopback port with the given clients and accounts. The issuer is
 * `http://127.0.0.1:<port>`; the endpoints are read back from its discovery document.
 */
export async function startOAuthProvider(options: TestOAuthProviderOptions): Promise<TestOAuthProvider> {
  const Provider = await loadProvider();
  const accounts: Record<string, Record<string, unknown>> = { ...(options.accounts ?? {}) };
  const requests: TestOAuthProvider['requests'] = [];
  const errors: TestOAuthProvider['errors'] = [];

  // The provider needs its issuer, so the port, before it exists: the server starts first and serves it once made.
  const serving: { handler?: (req: http.IncomingMessage, res: http.ServerResponse) => void } = {};
  const server = http.createServer((req, res) => {
    requests.push({ method: req.method ?? '', path: req.url ?? '' });
    if (serving.handler) serving.handler(req, res);
    else res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const issuer = `http://127.0.0.1:${port}`;

  const claimNames = new Set(['sub', 'name']);
  for (const claims of Object.values(accounts)) for (const k of Object.keys(claims)) claimNames.add(k);

  const provider = await quietly(
    () =>
      new Provider(issuer, {
        clients: options.clients.map((c) => ({
          client_id: c.clientId,
          client_secret: c.clientSecret,
          redirect_uris: c.redirectUris,
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: c.tokenAuthMethod ?? 'client_secret_post',
        })),
        responseTypes: ['code'],
        pkce: { required: () => true },
        features: { devInteractions: { enabled: true } },
        // Every claim of the accounts comes with the openid scope, so the user info answers them all.
        claims: { openid: [...claimNames] },
        async findAccount(_ctx: unknown, sub: string) {
          return {
            accountId: sub,
            claims: async () => ({ sub, name: sub, ...(accounts[sub] ?? {}) }),
          };
        },
        cookies: { keys: [crypto.randomBytes(32).toString('hex')] },
        ttl: {
          AccessToken: 600,
          AuthorizationCode: 60,
          IdToken: 600,
          Interaction: 600,
          Session: 600,
          Grant: 600,
        },
        clientBasedCORS: () => false,
        async renderError(ctx: { type: string; body: string }, out: Record<string, string>) {
          ctx.type = 'html';
          const text = Object.entries(out)
            .map(([k, v]) => `${k}: ${String(v).replace(/[<>&"]/g, '')}`)
            .join('\n');
          ctx.body = `<!DOCTYPE html><html><head><title>oops! something went wrong</title></head><body><pre>${text}</pre></body></html>`;
        },
      }),
  );
  for (const event of [
    'server_error',
    'authorization.error',
    'grant.error',
    'userinfo.error',
    'interaction.error',
    'backchannel.error',
  ]) {
    provider.on(event, (...args: unknown[]) => {
      const err = args.find(
        (a): a is { error?: string; message?: string; error_description?: string } => a instanceof Error,
      );
      errors.push({ event, error: err?.error ?? err?.message ?? 'error', description: err?.error_description });
    });
  }
  serving.handler = provider.callback();

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };

  let discovery: Record<string, string>;
  try {
    const res = await fetch(`${issuer}/.well-known/openid-configuration`);
    discovery = (await res.json()) as Record<string, string>;
  } catch (e) {
    await stop();
    throw e;
  }

  const authorize: TestOAuthProvider['authorize'] = async (startUrl, login, { deny = false } = {}) => {
    const jar = new CookieJar();
    let url = startUrl;
    let method: 'GET' | 'POST' = 'GET';
    let body: URLSearchParams | undefined;
    for (let step = 0; step < 20; step++) {
      if (new URL(url).origin !== issuer) return url;
      const res = await fetch(url, {
        method,
        body,
        redirect: 'manual',
        headers: { cookie: jar.header(), accept: 'text/html' },
      });
      jar.store(res);
      const text = await res.text();
      if (res.status >= 300 && res.status < 400) {
        const location = res.headers.get('location');
        if (!location) throw new Error(`the provider answered ${res.status} without a Location at ${url}`);
        url = new URL(location, url).href;
        method = 'GET';
        body = undefined;
        continue;
      }
      if (res.status !== 200) throw new Error(`the provider answered ${res.status} at ${url}:\n${text.slice(0, 2000)}`);
      const form = parseForm(text, url);
      if (form.prompt === 'login') {
        url = form.action;
        method = 'POST';
        body = new URLSearchParams({ prompt: 'login', login, password: 'any' });
      } else if (form.prompt === 'consent' && deny) {
        if (!form.abort) throw new Error('no cancel link on the consent page');
        url = form.abort;
        method = 'GET';
        body = undefined;
      } else {
        url = form.action;
        method = 'POST';
        body = new URLSearchParams({ prompt: form.prompt });
      }
    }
    throw new Error(`the provider's pages did not end in a redirect out of ${issuer} within 20 steps`);
  };

  return {
    issuer,
    port,
    authorizeUrl: discovery.authorization_endpoint,
    tokenUrl: discovery.token_endpoint,
    userinfoUrl: discovery.userinfo_endpoint,
    accounts,
    requests,
    errors,
    authorize,
    stop,
  };
}
