import { definePlugin } from '../../src/core/plugin';
import en_US from './messages/en_US.json';
import zh_CN from './messages/zh_CN.json';

export default definePlugin({
  id: 'reset-password',
  routes: [
    {
      path: '/users/resetpassword',
      frame: 'bare',
      load: () => import(/* webpackChunkName: "plugin-reset-password" */ './pages/ResetPasswordPage'),
    },
  ],
  messages: { zh_CN, en_US },
});
