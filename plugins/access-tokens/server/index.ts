import { defineServerPlugin } from '../../../server/plugin';
import { accessTokenRoutes } from './routes';
import { messages } from './messages';
import { tokenAuthenticator } from './tokens';
import { tokenExpiryNotices } from './service';

/**
 * Server slice of the access-tokens plugin, discovered by its folder (server/plugin-loader.ts).
 * Personal access tokens: the management calls, their table, and the open API's token check.
 */
export default defineServerPlugin({
  id: 'access-tokens',
  routes: accessTokenRoutes,
  messages,
  // The open-API authentication of the core verifies tokens through this (ctx.tokenAuth).
  provides: { tokenAuth: (ctx) => tokenAuthenticator(ctx) },
  scheduled: tokenExpiryNotices,
});
