import { definePlugin } from '../../src/core/plugin';
import type { ResetPasswordStore } from './store';

declare module '../../src/core/stores/root' {
  interface StoreMap {
    /** The forgot-password wizard (account + slider → mailed code → new password). */
    resetPassword: ResetPasswordStore;
  }
}

export default definePlugin({
  id: 'reset-password',
  routes: [
    {
      path: '/users/resetpassword',
      frame: 'bare',
      load: () => import(/* webpackChunkName: "plugin-reset-password" */ './pages/ResetPasswordPage'),
      chunks: ['plugin-reset-password'],
      firstScreen: true,
    },
  ],
  messages: {
    zh_CN: () => import(/* webpackChunkName: "messages-zh_CN" */ './messages/zh_CN.json'),
    en_US: () => import(/* webpackChunkName: "messages-en_US" */ './messages/en_US.json'),
  },
  stores: {
    resetPassword: () => import(/* webpackChunkName: "plugin-reset-password" */ './store'),
  },
});
