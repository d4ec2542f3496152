import { definePlugin } from '../../src/core/plugin';
import type { InboxCountsStore, InboxStore } from './store';

declare module '../../src/core/stores/root' {
  interface StoreMap {
    /** The message center's list, filter, selection and actions. */
    inbox: InboxStore;
    /** Unread and total message counts, shared by the top-bar bell and the message center. */
    inboxCounts: InboxCountsStore;
  }
}

export default definePlugin({
  id: 'notifications',
  routes: [
    {
      path: '/users/notifications',
      frame: 'app',
      load: () => import(/* webpackChunkName: "plugin-notifications" */ './pages/NotificationsPage'),
      chunks: ['plugin-notifications'],
      // Its title, description, tabs and the first page (the page brings it) paint with the document.
      firstScreen: true,
    },
  ],
  // The bell shows on every framed page, so its chunk (with the stores) is small and separate from the page's.
  headerItems: [
    {
      key: 'notifications-bell',
      load: () => import(/* webpackChunkName: "plugin-notifications-bell" */ './components/InboxBell'),
      chunks: ['plugin-notifications-bell'],
    },
  ],
  messages: {
    zh_CN: () => import(/* webpackChunkName: "messages-zh_CN" */ './messages/zh_CN.json'),
    en_US: () => import(/* webpackChunkName: "messages-en_US" */ './messages/en_US.json'),
  },
  stores: {
    inbox: () => import(/* webpackChunkName: "plugin-notifications-bell" */ './store'),
    inboxCounts: () =>
      import(/* webpackChunkName: "plugin-notifications-bell" */ './store').then((m) => ({
        default: m.createInboxCountsStore,
      })),
  },
});
