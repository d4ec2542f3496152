import { definePlugin } from '../../src/core/plugin';
import type { ProfileStore } from './store';

declare module '../../src/core/stores/root' {
  interface StoreMap {
    /** Password, language, avatar and e-mail of the signed-in user (settings page and e-mail landing page). */
    profile: ProfileStore;
  }
}

export default definePlugin({
  id: 'profile',
  settingsSections: [
    {
      key: 'profile',
      messageId: 'profile.sidebar.title',
      load: () => import(/* webpackChunkName: "plugin-profile" */ './pages/ProfilePage'),
      chunks: ['plugin-profile', 'plugin-profile-store'],
      firstScreen: true,
    },
  ],
  routes: [
    {
      path: '/users/emails',
      frame: 'bare',
      load: () => import(/* webpackChunkName: "plugin-profile-emails" */ './pages/EmailVerifyPage'),
      chunks: ['plugin-profile-emails'],
    },
  ],
  messages: {
    zh_CN: () => import(/* webpackChunkName: "messages-zh_CN" */ './messages/zh_CN.json'),
    en_US: () => import(/* webpackChunkName: "messages-en_US" */ './messages/en_US.json'),
  },
  stores: {
    // Shared by the settings page and the e-mail landing page: its own chunk, loaded by whichever comes first.
    profile: () => import(/* webpackChunkName: "plugin-profile-store" */ './store'),
  },
});
