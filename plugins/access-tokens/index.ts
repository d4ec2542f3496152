import { definePlugin } from '../../src/core/plugin';
import type { AccessTokensStore } from './store';

declare module '../../src/core/stores/root' {
  interface StoreMap {
    /** Personal access tokens of the signed-in user (current and legacy screens). */
    accessTokens: AccessTokensStore;
  }
}

export default definePlugin({
  id: 'access-tokens',
  settingsSections: [
    {
      key: 'personalAccessToken',
      messageId: 'access-tokens.sidebar.title',
      // `/create` opens the create drawer over the list.
      subPaths: ['create'],
      load: () => import(/* webpackChunkName: "plugin-access-tokens" */ './pages/AccessTokensPage'),
      chunks: ['plugin-access-tokens'],
      firstScreen: true,
    },
  ],
  messages: {
    zh_CN: () => import(/* webpackChunkName: "messages-zh_CN" */ './messages/zh_CN.json'),
    en_US: () => import(/* webpackChunkName: "messages-en_US" */ './messages/en_US.json'),
  },
  stores: {
    accessTokens: () => import(/* webpackChunkName: "plugin-access-tokens" */ './store'),
  },
});
