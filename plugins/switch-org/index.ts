import { definePlugin } from '../../src/core/plugin';

export default definePlugin({
  id: 'switch-org',
  routes: [
    {
      path: '/users/switch/organization',
      frame: 'app',
      load: () => import(/* webpackChunkName: "plugin-switch-org" */ './pages/SwitchOrganizationPage'),
    },
    {
      path: '/users/switch/:organizationId/app-entry',
      frame: 'app',
      load: () => import(/* webpackChunkName: "plugin-switch-org" */ './pages/AppEntryPage'),
    },
  ],
  messages: {
    zh_CN: () => import(/* webpackChunkName: "messages-zh_CN" */ './messages/zh_CN.json'),
    en_US: () => import(/* webpackChunkName: "messages-en_US" */ './messages/en_US.json'),
  },
});
