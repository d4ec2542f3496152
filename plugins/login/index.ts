import { edition } from '../../src/core/edition';
import { definePlugin, type PluginRoute } from '../../src/core/plugin';
import { LoginStore } from './store';

const loadLogin = () => import(/* webpackChunkName: "plugin-login" */ './pages/LoginPage');
const routes: PluginRoute[] = [{ path: '/users/login', frame: 'bare', load: loadLogin }];
// The global edition signs in at /sso/login as well (its re-login path).
if (edition.paths.relogin === '/sso/login') routes.push({ path: '/sso/login', frame: 'bare', load: loadLogin });

export default definePlugin({
  id: 'login',
  routes,
  messages: {
    zh_CN: () => import(/* webpackChunkName: "messages-zh_CN" */ './messages/zh_CN.json'),
    en_US: () => import(/* webpackChunkName: "messages-en_US" */ './messages/en_US.json'),
  },
  createStores: (root) => ({ login: new LoginStore(root.client) }),
});
