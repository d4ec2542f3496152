import { edition } from '../../src/core/edition';
import { definePlugin, type PluginRoute } from '../../src/core/plugin';
import type { LoginStore } from './store';

declare module '../../src/core/stores/root' {
  interface StoreMap {
    /** The sign-in flow (credentials, forced password change). */
    login: LoginStore;
  }
}

const loadLogin = () => import(/* webpackChunkName: "plugin-login" */ './pages/LoginPage');
const routes: PluginRoute[] = [
  { path: '/users/login', frame: 'bare', load: loadLogin, chunks: ['plugin-login'], firstScreen: true },
  // Where a third-party sign-in that did not work lands; its own small chunk.
  {
    path: '/login/errors',
    frame: 'bare',
    load: () => import(/* webpackChunkName: "plugin-login-errors" */ './pages/LoginErrorPage'),
    chunks: ['plugin-login-errors'],
  },
];
// The global edition signs in at /sso/login as well (its re-login path).
if (edition.paths.relogin === '/sso/login')
  routes.push({ path: '/sso/login', frame: 'bare', load: loadLogin, chunks: ['plugin-login'], firstScreen: true });

export default definePlugin({
  id: 'login',
  routes,
  messages: {
    zh_CN: () => import(/* webpackChunkName: "messages-zh_CN" */ './messages/zh_CN.json'),
    en_US: () => import(/* webpackChunkName: "messages-en_US" */ './messages/en_US.json'),
  },
  stores: {
    login: () => import(/* webpackChunkName: "plugin-login" */ './store'),
  },
});
