import { definePlugin } from '../../src/core/plugin';
import type { PackagesCredentialStore } from './store';

declare module '../../src/core/stores/root' {
  interface StoreMap {
    /** The artifact-repository credential of the signed-in user. */
    packagesCredential: PackagesCredentialStore;
  }
}

export default definePlugin({
  id: 'packages-credential',
  settingsSections: [
    {
      key: 'packagesCredential',
      messageId: 'packages-credential.sidebar.title',
      load: () => import(/* webpackChunkName: "plugin-packages-credential" */ './pages/PackagesCredentialPage'),
      chunks: ['plugin-packages-credential'],
      firstScreen: true,
    },
  ],
  messages: {
    zh_CN: () => import(/* webpackChunkName: "messages-zh_CN" */ './messages/zh_CN.json'),
    en_US: () => import(/* webpackChunkName: "messages-en_US" */ './messages/en_US.json'),
  },
  stores: {
    packagesCredential: () => import(/* webpackChunkName: "plugin-packages-credential" */ './store'),
  },
});
