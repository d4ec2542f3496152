import { definePlugin } from '../../src/core/plugin';
import en_US from './messages/en_US.json';
import zh_CN from './messages/zh_CN.json';

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
  messages: { zh_CN, en_US },
});
