import { definePlugin } from '../../src/core/plugin';
import en_US from './messages/en_US.json';
import zh_CN from './messages/zh_CN.json';
import { PackagesCredentialStore } from './store';

export default definePlugin({
  id: 'packages-credential',
  settingsSections: [
    {
      key: 'packagesCredential',
      messageId: 'packages-credential.sidebar.title',
      load: () => import(/* webpackChunkName: "plugin-packages-credential" */ './pages/PackagesCredentialPage'),
    },
  ],
  messages: { zh_CN, en_US },
  createStores: (root) => ({ packagesCredential: new PackagesCredentialStore(root.client) }),
});
