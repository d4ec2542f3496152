import { defineServerPlugin } from '../../../server/plugin';
import { sshKeyRoutes } from './routes';
import { messages } from './messages';
import { sshKeyExpiryNotices } from './service';
import * as m030 from './migrations/030-credentials';

/**
 * Server slice of the ssh-keys plugin, discovered by its folder (server/plugin-loader.ts).
 * SSH public keys for code hosting.
 */
export default defineServerPlugin({
  id: 'ssh-keys',
  routes: sshKeyRoutes,
  migrations: { '030-credentials': m030 },
  messages,
  scheduled: sshKeyExpiryNotices,
});
