import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../../server/context';
import type { Clock } from '../../../server/clock';
import type { DB } from '../../../server/db/schema';
import { AccountError } from '../../../server/services/accounts';
import { bindIdentity } from '../../../server/services/identities';
import { randomSecret, sha256 } from '../../../server/auth/random';
import type { IdentityProvider } from '../../../schemas/identities';
import { isOAuthProvider, OAUTH_PROVIDERS, type LoginErrorType, type OAuthProvider } from '../../../schemas/sign-in';
import type { PendingBind } from '../contract';
import { InexactNumber, parseProviderJson } from './provider-json';
import { readSecret, secretRefFrom } from './secret-ref';
import { safeNextUrl } from './service';
import type { OAuthProvidersTable } from './tables';

/**
 * Third-party sign-in (OAuth 2.0 authorisation code flow with `state` and PKCE S256) and the pending bind, as a
 * service the routes (./oauth-routes.ts) and the CLI (./cli-oauth.ts) call.
 *
 * The flow: the start stores a `state` (digest only) bound to the browser by a random cookie nonce (digest only)
 * with the PKCE verifier and the validated `next`; the callback takes that row single-use (DELETE … RETURNING),
 * exchanges the code at the token endpoint (client_secret_post: `client_id` and `client_secret` in the form body,
 * with `code_verifier`), reads the user info with the access token as a Bearer token, and reads the account id
 * from the configured (dotted) field. The client secret is read from its reference at use time and never stored,
 * logged or answered; neither are the code nor the access token.
 */

/** The endpoints, scope and fields of a provider. */
export interface OAuthEndpoints {
  authorizeUrl: string;
  tokenUrl: string;
  userinfoUrl: string;
  /** Space-separated; empty: no `scope` parameter is sent. */
  scope: string;
  /** Dotted path of the account id in the user-info answer. */
  idField: string;
  /** Dotted path of the display name in the user-info answer; empty: none. */
  nameField: string;
}

/**
 * What `set-oauth-provider` uses for options left out when a provider is first configured. Every value can be
 * overridden (an OAuth-compatible gateway in front of a provider, a private deployment, the tests' provider).
 * - DingTalk (open.dingtalk.com "获取用户 token" / "获取用户通讯录个人信息"): id `unionId`, name `nick`. Its token
 *   endpoint takes JSON with camelCase fields and answers `accessToken`, and its user info wants the token in
 *   `x-acs-dingtalk-access-token`: the service reads `accessToken` as well as `access_token` and sends that header
 *   besides `Authorization: Bearer` to DingTalk.
 * - Lark / Feishu (open.feishu.cn authen v1 authorize, v2 oauth/token, v1 user_info): a standard code exchange;
 *   the user info nests the account under `data` (`data.open_id`, `data.name`). No scope is needed.
 * - WeCom (企业微信 web login, `wwlogin/sso/login`): its code is exchanged with the corporation's own access token
 *   (`cgi-bin/gettoken`, then `cgi-bin/auth/getuserinfo?code=`), which is not OAuth 2.0; the addresses are the
 *   documented ones for reference, and a WeCom sign-in needs them pointed at an OAuth-compatible gateway. Id `userid`.
 */
export const OAUTH_PROVIDER_DEFAULTS: Record<OAuthProvider, OAuthEndpoints> = {
  dingtalk: {
    authorizeUrl: 'https://login.dingtalk.com/oauth2/auth',
    tokenUrl: 'https://api.dingtalk.com/v1.0/oauth2/userAccessToken',
    userinfoUrl: 'https://api.dingtalk.com/v1.0/contact/users/me',
    scope: 'openid',
    idField: 'unionId',
    nameField: 'nick',
  },
  lark: {
    authorizeUrl: 'https://open.feishu.cn/open-apis/authen/v1/authorize',
    tokenUrl: 'https://open.feishu.cn/open-apis/authen/v2/oauth/token',
    userinfoUrl: 'https://open.feishu.cn/open-apis/authen/v1/user_info',
    scope: '',
    idField: 'data.open_id',
    nameField: 'data.name',
  },
  wecom: {
    authorizeUrl: 'https://login.work.weixin.qq.com/wwlogin/sso/login',
    tokenUrl: 'https://qyapi.weixin.qq.com/cgi-bin/gettoken',
    userinfoUrl: 'https://qyapi.weixin.qq.com/cgi-bin/auth/getuserinfo',
    scope: '',
    idField: 'userid',
    nameField: '',
  },
};

/** How long a started sign-in may take at the provider (state row and browser cookie). */
export const OAUTH_STATE_TTL_MS = 10 * 60 * 1000;
/** How long an unbound third-party account waits for a password sign-in to bind it. */
export const PENDING_BIND_TTL_MS = 10 * 60 * 1000;
/** Each call to the provider (token, user info) must answer within this. */
export const OAUTH_HTTP_TIMEOUT_MS = 5_000;
/** Largest answer read from the provider (bytes). */
export const OAUTH_ANSWER_MAX_BYTES = 64 * 1024;
/** The browser nonce cookie that binds a started sign-in to its browser (path `/login/oauth`). */
export const OAUTH_STATE_COOKIE = 'account_oauth_state';
/** The pending-bind ticket cookie (path `/`). */
export const OAUTH_BIND_COOKIE = 'account_oauth_bind';
/** Longest account id (the `identities.open_id` column) and display name kept. */
const OPEN_ID_MAX = 200;
const DISPLAY_NAME_MAX = 200;

/** The identity credential a provider's accounts are bound under: Lark binds as `feishu`. */
export function identityProviderOf(provider: OAuthProvider): Exclude<IdentityProvider, 'api' | 'idp'> {
  return provider === 'lark' ? 'feishu' : provider;
}

// ── Configuration (CLI) ──

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
// eslint-disable-next-line no-control-regex -- matching control characters is the point: they are refused
const CONTROL_OR_SPACE = /[\u0000-\u0020\u007f]/;
const FIELD_PATH = /^[A-Za-z0-9_$-]+(\.[A-Za-z0-9_$-]+)*$/;
const SCOPE = /^[\u0021-\u007e]+( [\u0021-\u007e]+)*$/;

/** Why an endpoint URL is refused (https only; http for loopback hosts, e.g. tests), or null when it is fine. */
export function endpointProblem(url: string): string | null {
  if (url.length > 1000) return 'must be at most 1000 characters';
  if (CONTROL_OR_SPACE.test(url)) return `must be a URL without spaces or control characters`;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `must be an absolute https URL, got "${url}"`;
  }
  if (u.username || u.password) return 'must not carry a user name or password';
  if (u.hash) return 'must not carry a fragment';
  if (u.protocol === 'https:') return null;
  if (u.protocol === 'http:' && LOOPBACK_HOSTS.has(u.hostname)) return null;
  return `must be an https URL (http only on 127.0.0.1 or localhost), got "${url}"`;
}

/** What `set-oauth-provider` gives; left-out options keep the stored value (the defaults on first configuration). */
export interface SetOAuthProviderInput {
  provider: string;
  clientId?: string;
  clientSecretFile?: string;
  clientSecretEnv?: string;
  authorizeUrl?: string;
  tokenUrl?: string;
  userinfoUrl?: string;
  scope?: string;
  idField?: string;
  nameField?: string;
  /** Keep the configuration but offer no sign-in with it; absent: enabled. */
  disable?: boolean;
}

/**
 * Creates or updates (by provider) a third-party client. A first configuration needs the client id and the
 * secret reference; an update changes what is given. Enabling needs the secret readable now. Problems throw
 * AccountError naming the option (the CLI's exit 1).
 */
export async function setOAuthProvider(
  deps: { db: Kysely<DB>; clock: Clock },
  input: SetOAuthProviderInput,
): Promise<{ row: OAuthProvidersTable; created: boolean }> {
  const provider = input.provider;
  if (!isOAuthProvider(provider))
    throw new AccountError(`--provider must be one of ${OAUTH_PROVIDERS.join(', ')}, got "${provider}"`);
  const stored = await deps.db
    .selectFrom('oauth_providers')
    .selectAll()
    .where('provider', '=', provider)
    .executeTakeFirst();
  const defaults = OAUTH_PROVIDER_DEFAULTS[provider];

  const clientId = input.clientId ?? stored?.client_id;
  if (clientId === undefined) throw new AccountError('--client-id is required when a provider is first configured');
  if (!clientId || clientId.length > 200 || CONTROL_OR_SPACE.test(clientId))
    throw new AccountError('--client-id must be 1 to 200 characters without spaces');

  let secretRef = stored?.secret_ref;
  if (input.clientSecretFile !== undefined || input.clientSecretEnv !== undefined || !stored) {
    const ref = secretRefFrom('client-secret', input.clientSecretFile, input.clientSecretEnv);
    if ('problem' in ref) throw new AccountError(ref.problem);
    secretRef = ref.ref;
  }
  const enabled = input.disable ? 0 : 1;
  if (enabled && secretRef && input.clientSecretFile === undefined && input.clientSecretEnv === undefined) {
    const read = readSecret(secretRef);
    if ('problem' in read)
      throw new AccountError(
        `the stored client secret cannot be read (${read.problem}): give --client-secret-file or --client-secret-env`,
      );
  }

  const pick = (given: string | undefined, keep: string | undefined, dflt: string) => given ?? keep ?? dflt;
  const urls = {
    authorize_url: pick(input.authorizeUrl, stored?.authorize_url, defaults.authorizeUrl),
    token_url: pick(input.tokenUrl, stored?.token_url, defaults.tokenUrl),
    userinfo_url: pick(input.userinfoUrl, stored?.userinfo_url, defaults.userinfoUrl),
  };
  for (const [option, column] of [
    ['authorize-url', 'authorize_url'],
    ['token-url', 'token_url'],
    ['userinfo-url', 'userinfo_url'],
  ] as const) {
    const problem = endpointProblem(urls[column]);
    if (problem) throw new AccountError(`--${option} ${problem}`);
  }
  const scope = pick(input.scope, stored?.scope, defaults.scope).trim();
  if (scope.length > 200 || (scope && !SCOPE.test(scope)))
    throw new AccountError('--scope must be space-separated printable words, at most 200 characters');
  const idField = pick(input.idField, stored?.id_field, defaults.idField);
  if (idField.length > 100 || !FIELD_PATH.test(idField))
    throw new AccountError(`--id-field must be a field name or a dotted path (data.open_id), got "${idField}"`);
  const nameField = pick(input.nameField, stored?.name_field, defaults.nameField);
  if (nameField && (nameField.length > 100 || !FIELD_PATH.test(nameField)))
    throw new AccountError(`--name-field must be empty, a field name or a dotted path, got "${nameField}"`);

  const row: OAuthProvidersTable = {
    provider,
    client_id: clientId,
    secret_ref: secretRef!,
    ...urls,
    scope,
    id_field: idField,
    name_field: nameField,
    enabled,
    updated_at: deps.clock.now().getTime(),
  };
  const { provider: _key, ...changes } = row;
  await deps.db
    .insertInto('oauth_providers')
    .values(row)
    .onConflict((oc) => oc.column('provider').doUpdateSet(changes))
    .execute();
  return { row, created: !stored };
}

/** The configured providers in the fixed order (secret references, never secrets). */
export async function listOAuthProviders(deps: { db: Kysely<DB> }): Promise<OAuthProvidersTable[]> {
  const rows = await deps.db.selectFrom('oauth_providers').selectAll().execute();
  const order = (p: string) => OAUTH_PROVIDERS.indexOf(p as OAuthProvider);
  return rows.sort((a, b) => order(a.provider) - order(b.provider));
}

// ── The flow ──

/** A failure of the flow whose message is safe to log (no secret, token or code in it). */
export class OAuthFlowError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OAuthFlowError';
  }
}

/** The provider's configuration and secret when it is enabled and the secret can be read now, else null. */
async function usableProvider(
  ctx: AppContext,
  provider: OAuthProvider,
): Promise<{ row: OAuthProvidersTable; secret: string } | null> {
  const row = await ctx.db
    .selectFrom('oauth_providers')
    .selectAll()
    .where('provider', '=', provider)
    .where('enabled', '=', 1)
    .executeTakeFirst();
  if (!row) return null;
  const read = readSecret(row.secret_ref);
  return 'secret' in read ? { row, secret: read.secret } : null;
}

const NONCE_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** What starting a sign-in gives: where to send the browser and its nonce cookie, or that it is not offered. */
export type OAuthStart = { kind: 'redirect'; location: string; browserNonce: string } | { kind: 'notSupported' };

/**
 * The state row's provider of a re-authentication round trip (`reauth:lark`): a sign-in's callback never takes it for
 * a sign-in, nor a re-authentication's a sign-in's state (both come back to the one registered callback).
 */
const reauthStateOf = (provider: OAuthProvider) => `reauth:${provider}`;

/**
 * Starts a sign-in: a fresh state and PKCE verifier stored with the browser's nonce (the one it has when it looks
 * right, so sign-ins started in two tabs both complete) and the validated `next`; the authorize URL to go to. With
 * `reauth` it is a re-authentication of a signed-in account: the provider is asked to sign its person in afresh
 * (`prompt=login`, `max_age=0`), whatever session it has of them.
 */
export async function startOAuth(
  ctx: AppContext,
  input: { provider: OAuthProvider; next?: string; redirectUri: string; browserNonce?: string; reauth?: boolean },
): Promise<OAuthStart> {
  const usable = await usableProvider(ctx, input.provider);
  if (!usable) return { kind: 'notSupported' };
  const { row } = usable;
  const browserNonce =
    input.browserNonce && NONCE_SHAPE.test(input.browserNonce) ? input.browserNonce : randomSecret(32);
  const state = randomSecret(32);
  // 64 characters of [A-Za-z0-9_-], inside RFC 7636's 43–128 unreserved characters.
  const verifier = randomSecret(48);
  const challenge = crypto.createHash('sha256').update(verifier).digest('base64url');
  await ctx.db
    .insertInto('oauth_states')
    .values({
      state_hash: sha256(state),
      browser_hash: sha256(browserNonce),
      provider: input.reauth ? reauthStateOf(input.provider) : input.provider,
      code_verifier: verifier,
      next_url: safeNextUrl(input.next, ctx),
      expires_at: ctx.clock.now().getTime() + OAUTH_STATE_TTL_MS,
    })
    .execute();
  const url = new URL(row.authorize_url);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', row.client_id);
  url.searchParams.set('redirect_uri', input.redirectUri);
  if (row.scope) url.searchParams.set('scope', row.scope);
  url.searchParams.set('state', state);
  url.searchParams.set('code_challenge', challenge);
  url.searchParams.set('code_challenge_method', 'S256');
  if (input.reauth) {
    url.searchParams.set('prompt', 'login');
    url.searchParams.set('max_age', '0');
  }
  return { kind: 'redirect', location: url.href, browserNonce };
}

/** What the provider sent back to the callback. */
export interface OAuthCallbackInput {
  provider: OAuthProvider;
  code?: string;
  state?: string;
  error?: string;
  /** The browser's nonce cookie. */
  browserNonce?: string;
  /** The same redirect URI the start sent. */
  redirectUri: string;
}

/**
 * How a callback ends: a bound account (sign it in), an unbound one (a pending bind), a re-authentication's account
 * (the user it is bound to, or null; the route compares it with the session's), or a failure page.
 */
export type OAuthOutcome =
  | { kind: 'signedIn'; userId: string; next: string | null }
  | { kind: 'reauth'; userId: string | null; next: string | null }
  | { kind: 'unbound'; openId: string; name: string }
  | { kind: 'failed'; type: LoginErrorType; reason: string };

/**
 * Finishes a sign-in: the state row is taken single-use (same provider, same browser, not expired), then the code
 * is exchanged and the account id read. Errors from the provider's side throw OAuthFlowError (loginFailed).
 */
export async function finishOAuth(ctx: AppContext, input: OAuthCallbackInput): Promise<OAuthOutcome> {
  const failed = (reason: string, type: LoginErrorType = 'loginFailed'): OAuthOutcome => ({
    kind: 'failed',
    type,
    reason,
  });
  if (!input.state) return failed('no state in the callback');
  if (!input.browserNonce) return failed('no state cookie in this browser');
  const taken = await ctx.db
    .deleteFrom('oauth_states')
    .where('state_hash', '=', sha256(input.state))
    .where('provider', 'in', [input.provider, reauthStateOf(input.provider)])
    .where('browser_hash', '=', sha256(input.browserNonce))
    .where('expires_at', '>', ctx.clock.now().getTime())
    .returning(['code_verifier', 'next_url', 'provider'])
    .executeTakeFirst();
  if (!taken) return failed('state unknown, used, expired, or started in another browser');
  if (input.error) return failed(`the provider answered error "${input.error.replace(/[^\w.-]/g, '?').slice(0, 64)}"`);
  if (!input.code) return failed('no code in the callback');
  const usable = await usableProvider(ctx, input.provider);
  if (!usable) return failed('the provider is no longer enabled or its secret cannot be read', 'notSupported');
  const { row, secret } = usable;

  const token = await callProvider(row.token_url, 'token endpoint', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: input.code,
      redirect_uri: input.redirectUri,
      code_verifier: taken.code_verifier,
      client_id: row.client_id,
      client_secret: secret,
    }).toString(),
  });
  const accessToken = token.access_token ?? token.accessToken;
  if (typeof accessToken !== 'string' || !accessToken || accessToken.length > 8192)
    throw new OAuthFlowError('the token endpoint answered no access token');
  const info = await callProvider(row.userinfo_url, 'user-info endpoint', {
    method: 'GET',
    headers: {
      accept: 'application/json',
      authorization: `Bearer ${accessToken}`,
      ...(input.provider === 'dingtalk' ? { 'x-acs-dingtalk-access-token': accessToken } : {}),
    },
  });

  const id = fieldAt(info, row.id_field);
  if (id instanceof InexactNumber)
    return failed(`the user info's "${row.id_field}" is a number but not a safe integer`, 'noAccountInfo');
  // A string (trimmed as the identities service stores it) or a safe integer (parseProviderJson reads any other
  // number as an InexactNumber, so none was rounded onto another account's id).
  const openId = Number.isSafeInteger(id) ? String(id) : typeof id === 'string' ? id.trim() : null;
  if (!openId || openId.length > OPEN_ID_MAX)
    return failed(`the user info has no usable "${row.id_field}"`, 'noAccountInfo');
  const nameValue = row.name_field ? fieldAt(info, row.name_field) : undefined;
  const name = typeof nameValue === 'string' ? nameValue.slice(0, DISPLAY_NAME_MAX) : '';

  const bound = await ctx.db
    .selectFrom('identities')
    .innerJoin('users', 'users.id', 'identities.user_id')
    .select('identities.user_id')
    .where('identities.credential', '=', identityProviderOf(input.provider))
    .where('identities.open_id', '=', openId)
    .executeTakeFirst();
  if (taken.provider !== input.provider)
    return { kind: 'reauth', userId: bound?.user_id ?? null, next: taken.next_url };
  if (bound) return { kind: 'signedIn', userId: bound.user_id, next: taken.next_url };
  return { kind: 'unbound', openId, name };
}

/** The value at a dotted path of a JSON answer (`data.open_id`), or undefined. */
export function fieldAt(value: unknown, path: string): unknown {
  let at: unknown = value;
  for (const key of path.split('.')) {
    if (!at || typeof at !== 'object' || Array.isArray(at) || !Object.hasOwn(at, key)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

/** Why a fetch failed, without anything from the request (a timeout, a refused connection…). */
function fetchProblem(e: unknown): string {
  const err = e as { name?: string; cause?: { code?: unknown } };
  if (err?.name === 'TimeoutError') return `no answer within ${OAUTH_HTTP_TIMEOUT_MS / 1000} s`;
  if (err?.name === 'AbortError') return 'aborted';
  const code = err?.cause?.code;
  return typeof code === 'string' ? code : (err?.name ?? 'error');
}

/**
 * One call to the provider: 5 s for the whole answer, at most OAUTH_ANSWER_MAX_BYTES, a JSON object expected, read
 * exactly (numbers that are not safe integers come as InexactNumber).
 */
async function callProvider(url: string, what: string, init: RequestInit): Promise<Record<string, unknown>> {
  let text: string;
  let status: number;
  try {
    const res = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(OAUTH_HTTP_TIMEOUT_MS) });
    status = res.status;
    text = await readCapped(res, what);
  } catch (e) {
    if (e instanceof OAuthFlowError) throw e;
    throw new OAuthFlowError(`the ${what} could not be reached (${fetchProblem(e)})`);
  }
  if (status < 200 || status > 299) throw new OAuthFlowError(`the ${what} answered ${status}`);
  let json: unknown;
  try {
    json = parseProviderJson(text);
  } catch {
    throw new OAuthFlowError(`the ${what} answered something other than JSON`);
  }
  if (!json || typeof json !== 'object' || Array.isArray(json))
    throw new OAuthFlowError(`the ${what} answered something other than a JSON object`);
  return json as Record<string, unknown>;
}

/** The body as text, refused past OAUTH_ANSWER_MAX_BYTES (the rest is not read). */
async function readCapped(res: Response, what: string): Promise<string> {
  const tooLarge = () => new OAuthFlowError(`the ${what} answered more than ${OAUTH_ANSWER_MAX_BYTES} bytes`);
  const declared = Number(res.headers.get('content-length'));
  if (declared > OAUTH_ANSWER_MAX_BYTES) {
    await res.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > OAUTH_ANSWER_MAX_BYTES) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

// ── The pending bind ──

/** Keeps an unbound third-party account for this browser (replacing the browser's earlier one): the ticket. */
export async function createPendingBind(
  ctx: AppContext,
  input: { provider: OAuthProvider; openId: string; name: string; previousTicket?: string },
): Promise<string> {
  if (input.previousTicket)
    await ctx.db.deleteFrom('oauth_pending_binds').where('ticket_hash', '=', sha256(input.previousTicket)).execute();
  const ticket = randomSecret(32);
  await ctx.db
    .insertInto('oauth_pending_binds')
    .values({
      ticket_hash: sha256(ticket),
      provider: input.provider,
      open_id: input.openId,
      display_name: input.name,
      expires_at: ctx.clock.now().getTime() + PENDING_BIND_TTL_MS,
    })
    .execute();
  return ticket;
}

const asPendingBind = (row: { provider: string; open_id: string; display_name: string }): PendingBind => ({
  provider: row.provider as OAuthProvider,
  open_id: row.open_id,
  name: row.display_name,
});

/** The account waiting under a ticket, or null (none, expired). */
export async function findPendingBind(ctx: AppContext, ticket: string | undefined): Promise<PendingBind | null> {
  if (!ticket || ticket.length > 100) return null;
  const row = await ctx.db
    .selectFrom('oauth_pending_binds')
    .select(['provider', 'open_id', 'display_name'])
    .where('ticket_hash', '=', sha256(ticket))
    .where('expires_at', '>', ctx.clock.now().getTime())
    .executeTakeFirst();
  return row ? asPendingBind(row) : null;
}

/** Forgets the account waiting under a ticket. */
export async function forgetPendingBind(ctx: AppContext, ticket: string | undefined): Promise<void> {
  if (!ticket || ticket.length > 100) return;
  await ctx.db.deleteFrom('oauth_pending_binds').where('ticket_hash', '=', sha256(ticket)).execute();
}

/** How binding a pending account ended. */
export type BindPendingResult =
  { kind: 'bound'; bind: PendingBind } | { kind: 'none' } | { kind: 'boundToOther'; bind: PendingBind };

/**
 * Takes the ticket single-use and binds its account to the user (replacing the user's own earlier account of that
 * provider); refused when the account is bound to someone else.
 */
export async function bindPendingAccount(
  ctx: AppContext,
  ticket: string | undefined,
  userId: string,
): Promise<BindPendingResult> {
  const bind = await takePendingBind(ctx, ticket);
  return bind ? bindAccount(ctx, bind, userId) : { kind: 'none' };
}

/**
 * Takes the account waiting under a ticket, single use (the ticket stops working), or null (none, expired): a sign-in
 * that must wait for its second factor carries it until the factor is right (./second-step.ts).
 */
export async function takePendingBind(ctx: AppContext, ticket: string | undefined): Promise<PendingBind | null> {
  if (!ticket || ticket.length > 100) return null;
  const row = await ctx.db
    .deleteFrom('oauth_pending_binds')
    .where('ticket_hash', '=', sha256(ticket))
    .where('expires_at', '>', ctx.clock.now().getTime())
    .returning(['provider', 'open_id', 'display_name'])
    .executeTakeFirst();
  return row ? asPendingBind(row) : null;
}

/**
 * Binds a third-party account to the user (replacing the user's own earlier account of that provider); refused when
 * the account is bound to someone else.
 */
export async function bindAccount(ctx: AppContext, bind: PendingBind, userId: string): Promise<BindPendingResult> {
  const provider = identityProviderOf(bind.provider);
  const owner = async () =>
    (
      await ctx.db
        .selectFrom('identities')
        .select('user_id')
        .where('credential', '=', provider)
        .where('open_id', '=', bind.open_id)
        .executeTakeFirst()
    )?.user_id;
  const before = await owner();
  if (before === userId) return { kind: 'bound', bind };
  if (before) return { kind: 'boundToOther', bind };
  const user = await ctx.db.selectFrom('users').select('username').where('id', '=', userId).executeTakeFirstOrThrow();
  try {
    await bindIdentity(ctx, { username: user.username, provider, openId: bind.open_id });
  } catch (e) {
    // Someone else bound it between the check and the insert (the unique key refused it).
    const now = await owner();
    if (now && now !== userId) return { kind: 'boundToOther', bind };
    throw e;
  }
  return { kind: 'bound', bind };
}

/** Removes expired third-party sign-in states and pending binds (housekeeping). */
export async function purgeOAuth(ctx: AppContext): Promise<void> {
  const now = ctx.clock.now().getTime();
  await ctx.db.deleteFrom('oauth_states').where('expires_at', '<=', now).execute();
  await ctx.db.deleteFrom('oauth_pending_binds').where('expires_at', '<=', now).execute();
}
