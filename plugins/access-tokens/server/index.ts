import { defineServerPlugin } from '../../../server/plugin';
import { accessTokenRoutes } from './routes';
import { messages } from './messages';
import { tokenAuthenticator } from './tokens';
import { revokeAllTokens, searchTokens, tokenExpiryNotices } from './service';
import { settingsSectionKey } from '../../../schemas/page-paths';
import { TOKEN_PAGE_SIZE_DEFAULT } from '../limits';
import { purgeReplacedTokens } from './renewal';
import * as m074 from './migrations/074-token-rotation';
import { tokenHealth } from './health';

/**
 * Server slice of the access-tokens plugin, discovered by its folder (server/plugin-loader.ts).
 * Personal access tokens: the management calls, their table, and the open API's token check.
 */
export default defineServerPlugin({
  id: 'access-tokens',
  routes: accessTokenRoutes,
  messages,
  migrations: { '074-token-rotation': m074 },
  // A regenerated token's old row goes once its grace is over.
  housekeeping: purgeReplacedTokens,
  // The open-API authentication of the core verifies tokens through this (ctx.tokenAuth).
  provides: { tokenAuth: (ctx) => tokenAuthenticator(ctx) },
  scheduled: tokenExpiryNotices,
  revokeCredentials: revokeAllTokens,
  credentialHealth: tokenHealth,
  // The token page's first render has the list's first page as the page asks it before the person picks a size (else
  // it asks at once). The legacy screen fetches every token through its own call: it gets none. Tokens are personal.
  pageData: async (ctx, req, path) =>
    req.session && !ctx.edition.features?.legacyTokens && settingsSectionKey(path) === 'personalAccessToken'
      ? {
          page: await searchTokens(ctx, req.session.user.id, {
            includeExpired: true,
            currentPage: 1,
            pageSize: TOKEN_PAGE_SIZE_DEFAULT,
          }),
        }
      : undefined,
});
