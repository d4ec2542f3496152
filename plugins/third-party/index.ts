import { definePlugin } from '../../src/core/plugin';
import type { ThirdPartyStore } from './store';

declare module '../../src/core/stores/root' {
  interface StoreMap {
    /** Third-party bindings of the signed-in user. */
    thirdParty: ThirdPartyStore;
  }
}

export default definePlugin({
  id: 'third-party',
  settingsSections: [
    {
      key: 'third-party',
      messageId: 'third-party.sidebar.title',
      load: () => import(/* webpackChunkName: "plugin-third-party" */ './pages/ThirdPartyPage'),
      chunks: ['plugin-third-party'],
      firstScreen: true,
    },
  ],
  messages: {
    zh_CN: () => import(/* webpackChunkName: "messages-zh_CN" */ './messages/zh_CN.json'),
    en_US: () => import(/* webpackChunkName: "messages-en_US" */ './messages/en_US.json'),
  },
  stores: {
    thirdParty: () => import(/* webpackChunkName: "plugin-third-party" */ './store'),
  },
});
