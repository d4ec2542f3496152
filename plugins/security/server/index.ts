import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { defineServerPlugin } from '../../../server/plugin';
import { messages } from './messages';
import { sessionRoutes } from './sessions-routes';
import { historyRoutes } from './history-routes';
import { historyMigrations, historyServer } from './history';
import { sessionCommands } from './sessions-cli';
import { notMeRoutes } from './not-me';
import { twoFactorRoutes } from './two-factor-routes';
import { healthRoutes } from './health-routes';
import { twoFactorCommands } from './two-factor-cli';
import { mailSecurityEvent } from './security-mail';

/**
 * Every route of the slice: the account's sessions and trusted browsers, its history, "this wasn't me", its second
 * factors, its credential health.
 */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(sessionRoutes);
  await app.register(historyRoutes);
  await app.register(notMeRoutes);
  await app.register(twoFactorRoutes);
  await app.register(healthRoutes);
};

/**
 * Server slice of the account's security page, discovered by its folder (server/plugin-loader.ts): where the account
 * is signed in (and ending those sessions), the browsers the lockout trusts, the account's own history of sign-ins and
 * changes (written from the account events at the moment they happen), "this wasn't me", and the account's second
 * factors (authenticator app, passkeys, recovery codes; the admin's `factors` and `remove-factors`).
 */
export default defineServerPlugin({
  id: 'security',
  routes,
  migrations: historyMigrations,
  messages,
  cli: [...sessionCommands, ...historyServer.cli, ...twoFactorCommands],
  // Each event is written to the account's history and, for the security events, mailed (without a link).
  onEvent: async (deps, event, origin) => {
    const [news] = await Promise.all([
      historyServer.onEvent(deps, event, origin),
      mailSecurityEvent(deps, event, origin),
    ]);
    return news;
  },
  housekeeping: historyServer.housekeeping,
});
