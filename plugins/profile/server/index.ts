import { defineServerPlugin } from '../../../server/plugin';
import { profileRoutes } from './routes';
import { messages } from './messages';
import * as m010 from './migrations/010-profile';
import * as m061 from './migrations/061-avatar-uploads';
import * as m062 from './migrations/062-email-change-codes';
import * as m063 from './migrations/063-email-code-purpose';
import { bindAttributes, emailCodes, purgePendingAvatars } from './service';
import { settingsSectionKey } from '../../../schemas/page-paths';

/**
 * Server slice of the profile plugin, discovered by its folder (server/plugin-loader.ts).
 * Profile: name, language, e-mail activation, avatar.
 */
export default defineServerPlugin({
  id: 'profile',
  routes: profileRoutes,
  migrations: {
    '010-profile': m010,
    '061-avatar-uploads': m061,
    '062-email-change-codes': m062,
    '063-email-code-purpose': m063,
  },
  // Pending avatars nobody took within the hour go, with their files.
  housekeeping: purgePendingAvatars,
  messages,
  // The codes it mails to the current address also prove a first password (the login slice's password change).
  provides: { emailCodes },
  // The profile page's first render has the account's bind attributes (else it asks attributes:bind at once).
  pageData: async (ctx, req, path) =>
    req.session && settingsSectionKey(path) === 'profile'
      ? { attributes: await bindAttributes(ctx, req.session.user.id) }
      : undefined,
});
