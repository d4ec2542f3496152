import { definePlugin } from '../../src/core/plugin';

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
  messages: {
    zh_CN: () => import(/* webpackChunkName: "messages-zh_CN" */ './messages/zh_CN.json'),
    en_US: () => import(/* webpackChunkName: "messages-en_US" */ './messages/en_US.json'),
  },
});
