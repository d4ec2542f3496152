import { definePlugin } from '../../src/core/plugin';

export default definePlugin({
  id: 'security',
  settingsSections: [
    {
      key: 'security',
      messageId: 'security.sidebar.title',
      load: () => import(/* webpackChunkName: "plugin-security" */ './pages/SecurityPage'),
      chunks: ['plugin-security'],
    },
  ],
  messages: {
    zh_CN: () => import(/* webpackChunkName: "messages-zh_CN" */ './messages/zh_CN.json'),
    en_US: () => import(/* webpackChunkName: "messages-en_US" */ './messages/en_US.json'),
  },
});
