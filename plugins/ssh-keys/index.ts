import { definePlugin } from '../../src/core/plugin';
import en_US from './messages/en_US.json';
import zh_CN from './messages/zh_CN.json';
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
  messages: { zh_CN, en_US },
  createStores: (root) => ({ sshKeys: new SshKeysStore(root.client) }),
});
