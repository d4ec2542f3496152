import { edition } from '../../src/core/edition';
import { definePlugin } from '../../src/core/plugin';
import en_US from './messages/en_US.json';
import zh_CN from './messages/zh_CN.json';
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
  messages: { zh_CN, en_US },
  createStores: (root) => ({
    accessTokens: new AccessTokensStore(root.client, {
      legacy: edition.features.legacyTokens,
      userId: () => root.session.user?.id,
      locale: () => root.session.locale,
    }),
  }),
});
