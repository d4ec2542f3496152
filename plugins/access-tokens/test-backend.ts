import { createRequestClient, type RequestClient } from '../../src/core/request';
import type { AccessToken, TokenScope } from './api';

/** One call the fake service received. */
export interface SeenCall {
  method: string;
  path: string;
  body: unknown;
}

/** A scope tree shaped like the service's catalogue (two areas). */
export const TEST_SCOPES: TokenScope[] = [
  {
    scope_key: 'organization',
    scope_operate: 'read_write',
    scope_desc: 'Organization',
    sub_scopes: [
      { scope_key: 'organization:info', scope_operate: 'read', scope_desc: 'Organization information', sub_scopes: [] },
      { scope_key: 'organization:member', scope_operate: 'read_write', scope_desc: 'Members', sub_scopes: [] },
    ],
  },
  {
    scope_key: 'base',
    scope_operate: 'read',
    scope_desc: 'User information',
    sub_scopes: [
      { scope_key: 'base:user', scope_operate: 'read', scope_desc: 'Basic user information', sub_scopes: [] },
    ],
  },
];

/** A token row for tests. */
export function testToken(id: string, extra: Partial<AccessToken> = {}): AccessToken {
  return {
    token_id: id,
    name: `token ${id}`,
    description: '',
    token_scopes: ['base:user:read'],
    created_at: '2026-01-01T00:00:00.000Z',
    expires_at: '2099-01-01T00:00:00.000Z',
    last_used_at: null,
    expired: false,
    ...extra,
  };
}

/** Test-only fake of the token calls behind a real request client (its fetch is injected). */
export function fakeTokenService(
  options: { tokens?: AccessToken[]; fail?: (call: SeenCall) => number | undefined; batchScopes?: boolean } = {},
) {
  const tokens = [...(options.tokens ?? [])];
  const calls: SeenCall[] = [];
  const json = (status: number, data: unknown) =>
    new Response(JSON.stringify(data), { status, headers: { 'content-type': 'application/json' } });
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://test.local');
    const call: SeenCall = {
      method: init?.method ?? 'GET',
      path: url.pathname,
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
    };
    calls.push(call);
    const failed = options.fail?.(call);
    if (failed) return json(failed, { status: failed, requestId: 'r1', code: 'X', message: 'refused by test' });
    const body = (call.body ?? {}) as {
      name?: string;
      include_expired?: boolean;
      pagination?: { current_page: number; page_size: number };
    };
    if (call.path.endsWith('/tokens:search')) {
      const { current_page, page_size } = body.pagination!;
      const visible = body.include_expired ? tokens : tokens.filter((t) => !t.expired);
      return json(200, {
        access_tokens: visible.slice((current_page - 1) * page_size, current_page * page_size),
        pages: { current_page, page_size, total_size: visible.length },
      });
    }
    if (call.path.endsWith('/tokens:scopes')) return json(200, { token_scopes: TEST_SCOPES });
    if (call.path.endsWith('/tokens:batch'))
      return json(200, { access_tokens: tokens, ...(options.batchScopes ? { token_scopes: TEST_SCOPES } : {}) });
    if (call.method === 'POST' && /\/tokens$/.test(call.path)) {
      const t = testToken(`n${tokens.length + 1}`, { name: body.name! });
      tokens.unshift(t);
      return json(200, { ...t, token: 'pt-SECRETSECRETSECRETSECRETSECRETSECRETSECRET123456' });
    }
    const id = call.path.split('/').pop()!;
    const i = tokens.findIndex((t) => t.token_id === id);
    if (i < 0) return json(404, { status: 404, requestId: 'r2', code: 'AccessTokenNotFound', message: 'gone' });
    if (call.method === 'DELETE') {
      tokens.splice(i, 1);
      return json(200, { success: true });
    }
    tokens[i] = { ...tokens[i], name: body.name! };
    return json(200, tokens[i]);
  }) as typeof globalThis.fetch;
  const client: RequestClient = createRequestClient({ fetch, showServerError: () => {} });
  return { client, calls, tokens };
}
