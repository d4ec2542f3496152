import { defineServerPlugin } from '../../../server/plugin';
import { loginRoutes } from './routes';
import { oauthRoutes } from './oauth-routes';
import { secondStepRoutes } from './second-step-routes';
import { purgeSteps, stepChallenge, stepCookieName } from './second-step';
import { messages } from './messages';
import { purgeDevices } from './devices';
import { directoryCommands } from './cli-directory';
import { oauthCommands } from './cli-oauth';
import { signInMethods } from './methods';
import { directoryPasswords } from './directory-passwords';
import { trustedBrowsers } from './trusted-browsers';
import { findPendingBind, OAUTH_BIND_COOKIE, purgeOAuth } from './oauth';
import * as m053 from './migrations/053-sign-in-devices';
import * as m054 from './migrations/054-sign-in-sources';
import * as m068 from './migrations/068-mark-browsers';
import * as m072 from './migrations/072-sign-in-steps';
import type { LoginPageData } from '../contract';
import './tables';

/** The pages the sign-in form is on (the global edition's re-login path too). */
const SIGN_IN_PAGES = ['/users/login', '/sso/login'];

/**
 * Server slice of the login plugin, discovered by its folder (server/plugin-loader.ts).
 * Sign-in (password, LDAP / Windows AD, third-party OAuth), sign-out and password change.
 */
export default defineServerPlugin({
  id: 'login',
  routes: async (app) => {
    await app.register(loginRoutes);
    await app.register(oauthRoutes);
    await app.register(secondStepRoutes);
  },
  migrations: {
    '053-sign-in-devices': m053,
    '054-sign-in-sources': m054,
    '068-mark-browsers': m068,
    '072-sign-in-steps': m072,
  },
  messages,
  cli: [...directoryCommands, ...oauthCommands],
  // A directory account's password, asked by other slices (an e-mail change) through `ctx.directoryPasswords`; the
  // browsers the lockout trusts, listed and forgotten by the security page through `ctx.trustedBrowsers`.
  provides: { signInMethods, directoryPasswords, trustedBrowsers },
  // The sign-in page reached from "not bound" shows the waiting third-party account in its first render, and one a
  // third-party sign-in sent back for its second factor shows that step.
  pageData: async (ctx, req, path) => {
    if (!SIGN_IN_PAGES.includes(path)) return undefined;
    const data: LoginPageData = {};
    const ticket = req.cookies?.[OAUTH_BIND_COOKIE];
    if (ticket !== undefined) data.pendingBind = await findPendingBind(ctx, ticket);
    if (req.cookies?.[stepCookieName(ctx.secureCookies)] !== undefined)
      data.secondFactor = await stepChallenge(ctx, req);
    return Object.keys(data).length ? data : undefined;
  },
  housekeeping: async (ctx) => {
    await purgeDevices(ctx);
    await purgeOAuth(ctx);
    await purgeSteps(ctx);
  },
});
