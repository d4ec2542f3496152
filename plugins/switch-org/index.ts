import { definePlugin } from '../../src/core/plugin';
import type { AppEntryStore, OrganizationsStore } from './store';

declare module '../../src/core/stores/root' {
  interface StoreMap {
    /** The caller's organisations for the chooser, and the switch. */
    switchOrganizations: OrganizationsStore;
    /** The application entry guard's verdict for the link being opened. */
    appEntry: AppEntryStore;
  }
}

export default definePlugin({
  id: 'switch-org',
  routes: [
    {
      path: '/users/switch',
      frame: 'bare',
      load: () => import(/* webpackChunkName: "plugin-switch-org" */ './pages/SwitchHome'),
      chunks: ['plugin-switch-org'],
    },
    {
      path: '/users/switch/organization',
      frame: 'app',
      load: () => import(/* webpackChunkName: "plugin-switch-org" */ './pages/SwitchOrganizationPage'),
      chunks: ['plugin-switch-org'],
      // Its title, description and the first page of the list (the page brings it) paint with the document.
      firstScreen: true,
    },
    {
      path: '/users/switch/:organizationId/app-entry',
      frame: 'app',
      load: () => import(/* webpackChunkName: "plugin-switch-org" */ './pages/AppEntryPage'),
      chunks: ['plugin-switch-org'],
    },
  ],
  messages: {
    zh_CN: () => import(/* webpackChunkName: "messages-zh_CN" */ './messages/zh_CN.json'),
    en_US: () => import(/* webpackChunkName: "messages-en_US" */ './messages/en_US.json'),
  },
  stores: {
    switchOrganizations: () => import(/* webpackChunkName: "plugin-switch-org" */ './store'),
    appEntry: () =>
      import(/* webpackChunkName: "plugin-switch-org" */ './store').then((m) => ({ default: m.createAppEntryStore })),
  },
});
