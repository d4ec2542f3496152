import { defineServerPlugin } from '../../../server/plugin';
import { profileRoutes } from './routes';
import { messages } from './messages';
import * as m010 from './migrations/010-profile';

/**
 * Server slice of the profile plugin, discovered by its folder (server/plugin-loader.ts).
 * Profile: name, language, e-mail activation, avatar.
 */
export default defineServerPlugin({
  id: 'profile',
  routes: profileRoutes,
  migrations: { '010-profile': m010 },
  messages,
});
