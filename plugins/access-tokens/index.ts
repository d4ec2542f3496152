import { edition } from '../../src/core/edition';
import { definePlugin } from '../../src/core/plugin';
import { AccessTokensStore } from './store';

export default definePlugin({
  id: 'access-tokens',
  settingsSections: [
    {
      key: 'personalAccessToken',
      messageId: 'access-tokens.sidebar.title',
      subPaths: ['create'],
      load: () => import(/* webpackChunkName: "plugin-access-tokens" */ './pages/AccessTokensPage'),
    },
  ],
  messages: {
    zh_CN: () => import(/* webpackChunkName: "messages-zh_CN" */ './messages/zh_CN.json'),
    en_US: () => import(/* webpackChunkName: "messages-en_US" */ './messages/en_US.json'),
  },
  createStores: (root) => ({
    accessTokens: new AccessTokensStore(root.client, {
      legacy: edition.features.legacyTokens,
      userId: () => root.session.user?.id,
      locale: () => root.session.locale,
    }),
  }),
});
