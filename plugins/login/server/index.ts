import { defineServerPlugin } from '../../../server/plugin';
import { loginRoutes } from './routes';
import { messages } from './messages';
import { purgeDevices } from './devices';
import * as m053 from './migrations/053-sign-in-devices';

/**
 * Server slice of the login plugin, discovered by its folder (server/plugin-loader.ts).
 * Sign-in, sign-out and password change.
 */
export default defineServerPlugin({
  id: 'login',
  routes: loginRoutes,
  migrations: { '053-sign-in-devices': m053 },
  messages,
  housekeeping: purgeDevices,
});
