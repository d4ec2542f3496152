import { defineServerPlugin } from '../../../server/plugin';
import { packagesCredentialRoutes } from './routes';
import { messages } from './messages';
import * as m031 from './migrations/031-packages-credential';
import { assertPackagesInstalled, getUserInfo, revokePackagesPassword } from './service';
import { AppError } from '../../../server/errors';
import { settingsSectionKey } from '../../../schemas/page-paths';
import { packagesPasswordHealth } from './health';

/**
 * Server slice of the packages-credential plugin, discovered by its folder (server/plugin-loader.ts).
 * The artifact-repository credential.
 */
export default defineServerPlugin({
  id: 'packages-credential',
  routes: packagesCredentialRoutes,
  migrations: { '031-packages-credential': m031 },
  messages,
  revokeCredentials: revokePackagesPassword,
  credentialHealth: packagesPasswordHealth,
  // The credential page's first render has the account (else it asks at once), for the organisation in use as the
  // call has it. Where packages is not installed there is none: the page asks and shows the refusal, as before.
  pageData: async (ctx, req, path) => {
    const user = req.session?.user;
    if (!user || settingsSectionKey(path) !== 'packagesCredential') return undefined;
    try {
      await assertPackagesInstalled(ctx, user.id, user.current_org_id);
    } catch (e) {
      if (e instanceof AppError && e.status === 403) return undefined;
      throw e;
    }
    return { info: await getUserInfo(ctx, user.id, user.username) };
  },
});
