import { defineServerPlugin } from '../../../server/plugin';
import { sshKeyRoutes } from './routes';
import { messages } from './messages';
import { listKeys, sshKeyExpiryNotices } from './service';
import { settingsSectionKey } from '../../../schemas/page-paths';
import * as m030 from './migrations/030-credentials';
import { sshKeyHealth } from './health';

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
  credentialHealth: sshKeyHealth,
  // The SSH page's first render has the list (else it asks at once). The keys are personal: no organisation check.
  pageData: async (ctx, req, path) =>
    req.session && settingsSectionKey(path) === 'ssh' ? { keys: await listKeys(ctx, req.session.user.id) } : undefined,
});
