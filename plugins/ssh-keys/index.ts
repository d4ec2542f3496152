import { definePlugin } from '../../src/core/plugin';
import type { SshKeysStore } from './store';

declare module '../../src/core/stores/root' {
  interface StoreMap {
    /** The signed-in user's SSH public keys. */
    sshKeys: SshKeysStore;
  }
}

export default definePlugin({
  id: 'ssh-keys',
  settingsSections: [
    {
      key: 'ssh',
      messageId: 'ssh-keys.sidebar.title',
      load: () => import(/* webpackChunkName: "plugin-ssh-keys" */ './pages/SshKeysPage'),
      chunks: ['plugin-ssh-keys'],
      firstScreen: true,
    },
  ],
  messages: {
    zh_CN: () => import(/* webpackChunkName: "messages-zh_CN" */ './messages/zh_CN.json'),
    en_US: () => import(/* webpackChunkName: "messages-en_US" */ './messages/en_US.json'),
  },
  stores: {
    sshKeys: () => import(/* webpackChunkName: "plugin-ssh-keys" */ './store'),
  },
});
