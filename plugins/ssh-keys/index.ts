import { definePlugin } from '../../src/core/plugin';
import { SshKeysStore } from './store';

export default definePlugin({
  id: 'ssh-keys',
  settingsSections: [
    {
      key: 'ssh',
      messageId: 'ssh-keys.sidebar.title',
      load: () => import(/* webpackChunkName: "plugin-ssh-keys" */ './pages/SshKeysPage'),
    },
  ],
  messages: {
    zh_CN: () => import(/* webpackChunkName: "messages-zh_CN" */ './messages/zh_CN.json'),
    en_US: () => import(/* webpackChunkName: "messages-en_US" */ './messages/en_US.json'),
  },
  createStores: (root) => ({ sshKeys: new SshKeysStore(root.client) }),
});
