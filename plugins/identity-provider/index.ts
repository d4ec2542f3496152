import { definePlugin } from '../../src/core/plugin';
import en_US from './messages/en_US.json';
import zh_CN from './messages/zh_CN.json';
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
  messages: { zh_CN, en_US },
  createStores: (root) => ({ identityProviders: new IdentityProvidersStore(root.client) }),
});
