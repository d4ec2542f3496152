import { definePlugin } from '../../src/core/plugin';

export default definePlugin({
  id: 'notifications',
  routes: [
    {
      path: '/users/notifications',
      frame: 'app',
      load: () => import(/* webpackChunkName: "plugin-notifications" */ './pages/NotificationsPage'),
    },
  ],
  messages: {
    zh_CN: () => import(/* webpackChunkName: "messages-zh_CN" */ './messages/zh_CN.json'),
    en_US: () => import(/* webpackChunkName: "messages-en_US" */ './messages/en_US.json'),
  },
});
