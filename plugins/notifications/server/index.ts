import { defineServerPlugin } from '../../../server/plugin';
import { inboxRoutes } from './routes';
import { messages } from './messages';
import { inboxCommands } from './cli';
import { countMessages, listMessages, purgeOldMessages, receiveEvent } from './service';
import { INBOX_PAGE_SIZE_DEFAULT } from '../limits';
import * as m052 from './migrations/052-inbox';

/** The message center's page. */
const INBOX_PATH = '/users/notifications';

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
  // The top bar's bell is on every signed-in page: its first render has the counts (else it asks at once). The
  // message center's first render also has the first page of its list, as its first call asks it (every application,
  // all messages), in the page's language.
  pageData: async (ctx, req, path, { locale }) => {
    const user = req.session?.user;
    if (!user) return undefined;
    const [counts, page] = await Promise.all([
      countMessages(ctx, user.id),
      path === INBOX_PATH
        ? listMessages(ctx, user.id, locale, { tab: 'all', pageSize: INBOX_PAGE_SIZE_DEFAULT })
        : undefined,
    ]);
    return page ? { counts, page } : { counts };
  },
});
