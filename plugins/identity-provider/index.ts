import { definePlugin } from '../../src/core/plugin';
import type { IdentityProvidersStore } from './store';

declare module '../../src/core/stores/root' {
  interface StoreMap {
    /** Identity-source bindings of the signed-in user. */
    identityProviders: IdentityProvidersStore;
  }
}

export default definePlugin({
  id: 'identity-provider',
  settingsSections: [
    {
      key: 'identity-provider',
      messageId: 'identity-provider.sidebar.title',
      load: () => import(/* webpackChunkName: "plugin-identity-provider" */ './pages/IdentityProviderPage'),
      chunks: ['plugin-identity-provider'],
      firstScreen: true,
    },
  ],
  messages: {
    zh_CN: () => import(/* webpackChunkName: "messages-zh_CN" */ './messages/zh_CN.json'),
    en_US: () => import(/* webpackChunkName: "messages-en_US" */ './messages/en_US.json'),
  },
  stores: {
    identityProviders: () => import(/* webpackChunkName: "plugin-identity-provider" */ './store'),
  },
});
