import type { RequestClient } from '../../src/core/request';
import type { Success } from '../../schemas/common';
import type {
  AccessToken,
  LegacyTokensAnswer,
  TokenBody,
  TokenPage,
  TokenRecreateBody,
  TokenRegenerateBody,
  TokenRenewalAnswer,
  TokenScopesAnswer,
  TokenUpdateBody,
} from './contract';

/** Calls of the personal-access-token section (current and legacy "v1" screens); ≥ 500 shows the central notice. */
export function accessTokensApi(client: RequestClient) {
  return {
    /** One page of my tokens. */
    search: (includeExpired: boolean, currentPage: number, pageSize: number) =>
      client.post<TokenPage>('/users/ajax/v1/my/tokens:search', {
        include_expired: includeExpired,
        pagination: { current_page: currentPage, page_size: pageSize },
      }),
    /** Creates a token; the answer carries its value once. */
    create: (values: TokenBody) => client.post<AccessToken>('/users/ajax/v1/my/tokens', values),
    /** Edits name, scopes and expiry. */
    update: (id: string, values: TokenUpdateBody) =>
      client.put<AccessToken>(`/users/ajax/v1/my/tokens/${encodeURIComponent(id)}`, values),
    /** Deletes a token; it stops working at once. */
    remove: (id: string) => client.delete<Success>(`/users/ajax/v1/my/tokens/${encodeURIComponent(id)}`),
    /** A new secret and expiry for a live token; the old secret stops at once or after the grace. */
    regenerate: (id: string, values: TokenRegenerateBody) =>
      client.post<TokenRenewalAnswer>(`/users/ajax/v1/my/tokens/${encodeURIComponent(id)}/regenerate`, values),
    /** An expired token made again with its scopes (those no longer offered are named in the answer). */
    recreate: (id: string, values: TokenRecreateBody) =>
      client.post<TokenRenewalAnswer>(`/users/ajax/v1/my/tokens/${encodeURIComponent(id)}/recreate`, values),
    /** The scope catalogue tree, described in the page's language. */
    scopes: (locale?: string) => client.get<TokenScopesAnswer>('/users/ajax/v1/tokens:scopes', { locale }),
    /** Legacy screen: all my tokens plus the scope tree. */
    legacyList: (userId: string) =>
      client.post<LegacyTokensAnswer>('/users/ajax/v1/tokens:batch', {
        user_id: userId,
      }),
    /** Legacy screen: create. */
    legacyCreate: (values: TokenBody) => client.post<AccessToken>('/users/ajax/v1/tokens', values),
    /** Legacy screen: edit. */
    legacyUpdate: (id: string, values: TokenUpdateBody) =>
      client.put<AccessToken>(`/users/ajax/v1/tokens/${encodeURIComponent(id)}`, values),
    /** Legacy screen: delete. */
    legacyRemove: (id: string) => client.delete<Success>(`/users/ajax/v1/tokens/${encodeURIComponent(id)}`),
  };
}
