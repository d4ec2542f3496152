import { defineServerPlugin } from '../../../server/plugin';
import { inboxRoutes } from './routes';
import { messages } from './messages';
import { inboxCommands } from './cli';
import { purgeOldMessages, receiveEvent } from './service';
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
});
