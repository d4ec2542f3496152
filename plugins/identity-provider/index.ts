import { definePlugin } from '../../src/core/plugin';
import { IdentityProvidersStore } from './store';

export default definePlugin({
  id: 'identity-provider',
  settingsSections: [
    {
      key: 'identity-provider',
      messageId: 'identity-provider.sidebar.title',
      load: () => import(/* webpackChunkName: "plugin-identity-provider" */ './pages/IdentityProviderPage'),
    },
  ],
  messages: {
    zh_CN: () => import(/* webpackChunkName: "messages-zh_CN" */ './messages/zh_CN.json'),
    en_US: () => import(/* webpackChunkName: "messages-en_US" */ './messages/en_US.json'),
  },
  createStores: (root) => ({ identityProviders: new IdentityProvidersStore(root.client) }),
});
