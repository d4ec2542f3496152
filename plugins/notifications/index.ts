import { definePlugin } from '../../src/core/plugin';
import en_US from './messages/en_US.json';
import zh_CN from './messages/zh_CN.json';

export default definePlugin({
  id: 'notifications',
  routes: [
    {
      path: '/users/notifications',
      frame: 'app',
      load: () => import(/* webpackChunkName: "plugin-notifications" */ './pages/NotificationsPage'),
    },
  ],
  messages: { zh_CN, en_US },
});
