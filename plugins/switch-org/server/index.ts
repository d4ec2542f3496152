import { defineServerPlugin } from '../../../server/plugin';
import { switchOrgRoutes } from './routes';
import { messages } from './messages';
import * as m041 from './migrations/041-switch-org';

/**
 * Server slice of the switch-org plugin, discovered by its folder (server/plugin-loader.ts).
 * The organisation chooser's list and switch, the application entry guard's checks, the organisation's
 * app permissions and admins, help links and the members lookup.
 */
export default defineServerPlugin({
  id: 'switch-org',
  routes: switchOrgRoutes,
  migrations: { '041-switch-org': m041 },
  messages,
});
