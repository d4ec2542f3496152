import { definePlugin } from '../../src/core/plugin';
import { ThirdPartyStore } from './store';

export default definePlugin({
  id: 'third-party',
  settingsSections: [
    {
      key: 'third-party',
      messageId: 'third-party.sidebar.title',
      load: () => import(/* webpackChunkName: "plugin-third-party" */ './pages/ThirdPartyPage'),
    },
  ],
  messages: {
    zh_CN: () => import(/* webpackChunkName: "messages-zh_CN" */ './messages/zh_CN.json'),
    en_US: () => import(/* webpackChunkName: "messages-en_US" */ './messages/en_US.json'),
  },
  createStores: (root) => ({ thirdParty: new ThirdPartyStore(root.client) }),
});
