import { defineServerPlugin } from '../../../server/plugin';
import { packagesCredentialRoutes } from './routes';
import { messages } from './messages';
import * as m031 from './migrations/031-packages-credential';

/**
 * Server slice of the packages-credential plugin, discovered by its folder (server/plugin-loader.ts).
 * The artifact-repository credential.
 */
export default defineServerPlugin({
  id: 'packages-credential',
  routes: packagesCredentialRoutes,
  migrations: { '031-packages-credential': m031 },
  messages,
});
