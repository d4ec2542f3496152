import type { RequestClient } from '../../src/core/request';

/** A personal access token as the service lists it; `token` (the secret) only in the creation answer. */
export interface AccessToken {
  token_id: string;
  name: string;
  description: string;
  /** Grants such as `codeup:repository:write` (write implies read). */
  token_scopes: string[];
  created_at: string;
  /** ISO time; the token stops working at this instant. */
  expires_at: string | null;
  last_used_at: string | null;
  /** Decided by the server clock, so a wrong browser clock cannot make an expired token look editable. */
  expired: boolean;
  token?: string;
}

/** A node of the scope catalogue: an area with resources, or a resource (no `sub_scopes`). */
export interface TokenScope {
  scope_key: string;
  /** The strongest permission the scope can be granted: read-only, or read and write. */
  scope_operate: 'read' | 'read_write';
  scope_desc: string;
  sub_scopes: TokenScope[];
}

/** What create and edit send. */
export interface TokenFormValues {
  name: string;
  description?: string;
  token_scopes: string[];
  /** End of the chosen day minus 2 seconds, ISO. */
  expires_at: string;
}

/** One page of the list. */
export interface TokenPage {
  access_tokens: AccessToken[];
  pages: { current_page: number; page_size: number; total_size: number };
}

// Mutations show their own catalogue message, so the client's generic notice stays quiet for them.
const quiet = { silent: true } as const;

/** Calls of the personal-access-token section (current and legacy "v1" screens). */
export function accessTokensApi(client: RequestClient) {
  return {
    /** One page of my tokens. */
    search: (includeExpired: boolean, currentPage: number, pageSize: number) =>
      client.post<TokenPage>('/users/ajax/v1/my/tokens:search', {
        include_expired: includeExpired,
        pagination: { current_page: currentPage, page_size: pageSize },
      }),
    /** Creates a token; the answer carries its value once. */
    create: (values: TokenFormValues) =>
      client.post<AccessToken>('/users/ajax/v1/my/tokens', { ...values, created_at: new Date().toISOString() }, quiet),
    /** Edits name, scopes and expiry. */
    update: (id: string, values: TokenFormValues) =>
      client.put<AccessToken>(`/users/ajax/v1/my/tokens/${encodeURIComponent(id)}`, values, quiet),
    /** Deletes a token; it stops working at once. */
    remove: (id: string) =>
      client.delete<{ success: boolean }>(`/users/ajax/v1/my/tokens/${encodeURIComponent(id)}`, undefined, quiet),
    /** The scope catalogue tree, described in the page's language. */
    scopes: (locale?: string) => client.get<{ token_scopes: TokenScope[] }>('/users/ajax/v1/tokens:scopes', { locale }),
    /** Legacy screen: all my tokens plus the scope tree. */
    legacyList: (userId: string) =>
      client.post<{ access_tokens: AccessToken[]; token_scopes?: TokenScope[] }>('/users/ajax/v1/tokens:batch', {
        user_id: userId,
      }),
    /** Legacy screen: create. */
    legacyCreate: (values: TokenFormValues) => client.post<AccessToken>('/users/ajax/v1/tokens', values, quiet),
    /** Legacy screen: edit. */
    legacyUpdate: (id: string, values: TokenFormValues) =>
      client.put<AccessToken>(`/users/ajax/v1/tokens/${encodeURIComponent(id)}`, values, quiet),
    /** Legacy screen: delete. */
    legacyRemove: (id: string) =>
      client.delete<{ success: boolean }>(`/users/ajax/v1/tokens/${encodeURIComponent(id)}`, undefined, quiet),
  };
}
