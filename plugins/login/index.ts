import { edition } from '../../src/core/edition';
import { definePlugin, type PluginRoute } from '../../src/core/plugin';
import en_US from './messages/en_US.json';
import zh_CN from './messages/zh_CN.json';
import { LoginStore } from './store';

const loadLogin = () => import(/* webpackChunkName: "plugin-login" */ './pages/LoginPage');
const routes: PluginRoute[] = [{ path: '/users/login', frame: 'bare', load: loadLogin }];
// The global edition signs in at /sso/login as well (its re-login path).
if (edition.paths.relogin === '/sso/login') routes.push({ path: '/sso/login', frame: 'bare', load: loadLogin });

export default definePlugin({
  id: 'login',
  routes,
  messages: { zh_CN, en_US },
  createStores: (root) => ({ login: new LoginStore(root.client) }),
});
