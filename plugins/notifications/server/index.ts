import { defineServerPlugin } from '../../../server/plugin';
import { inboxRoutes } from './routes';
import { messages } from './messages';
import { inboxCommands } from './cli';
import { countMessages, purgeOldMessages, receiveEvent } from './service';
import * as m052 from './migrations/052-inbox';

/**
 * Server slice of the message center, discovered by its folder (server/plugin-loader.ts). It receives the
 * account events the core and the other slices emit and keeps them as messages in each recipient's inbox.
 */
export default defineServerPlugin({
  id: 'notifications',
  routes: inboxRoutes,
  migrations: { '052-inbox': m052 },
  messages,
  cli: inboxCommands,
  onEvent: receiveEvent,
  housekeeping: purgeOldMessages,
  // The top bar's bell is on every signed-in page: its first render has the counts (else it asks at once).
  pageData: async (ctx, req) => (req.session ? { counts: await countMessages(ctx, req.session.user.id) } : undefined),
});
