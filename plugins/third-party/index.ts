import { definePlugin } from '../../src/core/plugin';
import en_US from './messages/en_US.json';
import zh_CN from './messages/zh_CN.json';
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
  messages: { zh_CN, en_US },
  createStores: (root) => ({ thirdParty: new ThirdPartyStore(root.client) }),
});
