import { fakeBackend, ok, serviceError, type FakeBackend, type FakeCall } from '../../tests/kit/fake-backend';
import type { AccessToken, TokenScopeArea } from './contract';

/** Test-only: the token calls of the service as a table for the kit's fake backend (`tests/kit/fake-backend.ts`). */

/** A scope tree shaped like the service's catalogue (two areas). */
export const TEST_SCOPES: TokenScopeArea[] = [
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
    description: `token ${id} for tests`,
    token_scopes: ['base:user:read'],
    created_at: '2026-01-01T00:00:00.000Z',
    expires_at: '2099-01-01T00:00:00.000Z',
    last_used_at: null,
    last_use: null,
    expired: false,
    ...extra,
  };
}

/** Options of the fake token service. */
export interface TokenBackendOptions {
  /** Tokens the user has at the start (newest first). */
  tokens?: AccessToken[];
  /** A status to refuse a call with (the service's error shape), or undefined to answer it. */
  fail?: (call: FakeCall) => number | undefined;
  /** Whether the legacy list carries the scope catalogue. */
  batchScopes?: boolean;
}

/** The kit's fake backend answering the current and legacy token calls from an in-memory list. */
export function tokenBackend(options: TokenBackendOptions = {}): FakeBackend & { tokens: AccessToken[] } {
  const tokens = [...(options.tokens ?? [])];
  type Body = { name?: string; include_expired?: boolean; pagination?: { current_page: number; page_size: number } };
  const refused = (call: FakeCall) => {
    const status = options.fail?.(call);
    return status ? serviceError(status, 'X', 'refused by test', 'r1') : undefined;
  };
  const create = (call: FakeCall) => {
    const t = testToken(`n${tokens.length + 1}`, { name: (call.body as Body).name! });
    tokens.unshift(t);
    return ok({ ...t, token: 'pt-SECRETSECRETSECRETSECRETSECRETSECRETSECRET123456' });
  };
  const byId = (id: string, then: (i: number) => ReturnType<typeof ok>) => {
    const i = tokens.findIndex((t) => t.token_id === id);
    return i < 0 ? serviceError(404, 'AccessTokenNotFound', 'gone', 'r2') : then(i);
  };
  const update = (id: string, call: FakeCall) =>
    byId(id, (i) => ok((tokens[i] = { ...tokens[i], name: (call.body as Body).name! })));
  const remove = (id: string) => byId(id, (i) => (tokens.splice(i, 1), ok({ success: true })));
  // Regenerate and re-create: a new token in the old one's place, its secret once; re-create leaves out a grant the
  // test catalogue lacks (anything outside `base` and `organization`).
  const renew = (id: string, call: FakeCall, recreate: boolean) =>
    byId(id, (i) => {
      const old = tokens[i];
      const known = (g: string) => /^(base|organization):/.test(g);
      const fresh = testToken(`r${tokens.length + 1}`, {
        name: old.name,
        token_scopes: old.token_scopes.filter(known),
        expires_at: (call.body as { expires_at: string }).expires_at,
      });
      const stops = recreate ? old.expires_at! : new Date(Date.now() + 60 * 60_000).toISOString();
      tokens.splice(i, 1, fresh);
      return ok({
        access_token: { ...fresh, token: 'pt-RENEWEDRENEWEDRENEWEDRENEWEDRENEWEDRENEW123456' },
        previous_token_id: old.token_id,
        previous_stops_at: stops,
        dropped_scopes: recreate ? old.token_scopes.filter((g) => !known(g)) : [],
      });
    });
  const backend = fakeBackend({
    'POST /users/ajax/v1/my/tokens:search': (call) => {
      const body = call.body as Body;
      const { current_page, page_size } = body.pagination!;
      const visible = body.include_expired ? tokens : tokens.filter((t) => !t.expired);
      return (
        refused(call) ??
        ok({
          access_tokens: visible.slice((current_page - 1) * page_size, current_page * page_size),
          pages: { current_page, page_size, total_size: visible.length },
        })
      );
    },
    'GET /users/ajax/v1/tokens:scopes': (call) => refused(call) ?? ok({ token_scopes: TEST_SCOPES }),
    'POST /users/ajax/v1/tokens:batch': (call) =>
      refused(call) ?? ok({ access_tokens: tokens, ...(options.batchScopes ? { token_scopes: TEST_SCOPES } : {}) }),
    'POST /users/ajax/v1/my/tokens': (call) => refused(call) ?? create(call),
    'POST /users/ajax/v1/tokens': (call) => refused(call) ?? create(call),
    'PUT /users/ajax/v1/my/tokens/:id': (call) => refused(call) ?? update(call.params.id, call),
    'PUT /users/ajax/v1/tokens/:id': (call) => refused(call) ?? update(call.params.id, call),
    'DELETE /users/ajax/v1/my/tokens/:id': (call) => refused(call) ?? remove(call.params.id),
    'POST /users/ajax/v1/my/tokens/:id/regenerate': (call) => refused(call) ?? renew(call.params.id, call, false),
    'POST /users/ajax/v1/my/tokens/:id/recreate': (call) => refused(call) ?? renew(call.params.id, call, true),
    'DELETE /users/ajax/v1/tokens/:id': (call) => refused(call) ?? remove(call.params.id),
  });
  return Object.assign(backend, { tokens });
}
