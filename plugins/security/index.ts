import { definePlugin } from '../../src/core/plugin';
import type { SecurityStore } from './store';

declare module '../../src/core/stores/root' {
  interface StoreMap {
    /** The account's sessions, trusted browsers and history, and "this wasn't me". */
    security: SecurityStore;
  }
}

export default definePlugin({
  id: 'security',
  settingsSections: [
    {
      key: 'security',
      messageId: 'security.sidebar.title',
      load: () => import(/* webpackChunkName: "plugin-security" */ './pages/SecurityPage'),
      chunks: ['plugin-security'],
    },
  ],
  messages: {
    zh_CN: () => import(/* webpackChunkName: "messages-zh_CN" */ './messages/zh_CN.json'),
    en_US: () => import(/* webpackChunkName: "messages-en_US" */ './messages/en_US.json'),
  },
  stores: {
    security: () => import(/* webpackChunkName: "plugin-security" */ './store'),
  },
});
