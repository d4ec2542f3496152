import { definePlugin } from '../../src/core/plugin';
import en_US from './messages/en_US.json';
import zh_CN from './messages/zh_CN.json';

export default definePlugin({
  id: 'profile',
  settingsSections: [
    {
      key: 'profile',
      messageId: 'profile.sidebar.title',
      load: () => import(/* webpackChunkName: "plugin-profile" */ './pages/ProfilePage'),
    },
  ],
  routes: [
    {
      path: '/users/emails',
      frame: 'bare',
      load: () => import(/* webpackChunkName: "plugin-profile-emails" */ './pages/EmailVerifyPage'),
    },
  ],
  messages: { zh_CN, en_US },
});
