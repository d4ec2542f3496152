import { defineServerPlugin } from '../../../server/plugin';
import { resetPasswordRoutes } from './routes';
import { messages } from './messages';
import { purgeRecoveries } from './service';
import * as m051 from './migrations/051-password-recovery';

/**
 * Server slice of the password-recovery plugin, discovered by its folder (server/plugin-loader.ts).
 * The forgot-password wizard: slider pass → mailed code → reset ticket → new password.
 */
export default defineServerPlugin({
  id: 'reset-password',
  routes: resetPasswordRoutes,
  migrations: { '051-password-recovery': m051 },
  messages,
  housekeeping: purgeRecoveries,
});
