import { defineServerPlugin } from '../../../server/plugin';
import { listIdentities } from '../../../server/services/identities';
import { settingsSectionKey } from '../../../schemas/page-paths';

/**
 * Server slice of the third-party plugin, discovered by its folder (server/plugin-loader.ts). Its list is read through
 * the core identities route (shared with the identity-provider section); the slice only brings that answer to the
 * third-party page's first render (else the page asks at once). The bindings are personal: no organisation check.
 */
export default defineServerPlugin({
  id: 'third-party',
  pageData: async (ctx, req, path) =>
    req.session && settingsSectionKey(path) === 'third-party'
      ? { identities: { results: await listIdentities(ctx, req.session.user.id) } }
      : undefined,
});
