import { defineServerPlugin } from '../../../server/plugin';
import { switchOrgRoutes } from './routes';
import { messages } from './messages';
import * as m041 from './migrations/041-switch-org';
import { listMyOrganizations } from './service';
import { ORG_PAGE_SIZE_DEFAULT } from '../limits';

/** The organisation chooser's page (its first render has the list's first page). */
const CHOOSER_PATH = '/users/switch/organization';

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
  // The chooser's first render has the first page of the list, as its call asks it (else the page asks at once).
  // The list is the caller's own memberships: no organisation check (the chooser is the way out of a refused one).
  pageData: async (ctx, req, path) => {
    const user = req.session?.user;
    if (!user || path !== CHOOSER_PATH) return undefined;
    return {
      organizations: await listMyOrganizations(ctx, user.id, { userId: user.id, pageSize: ORG_PAGE_SIZE_DEFAULT }),
    };
  },
});
