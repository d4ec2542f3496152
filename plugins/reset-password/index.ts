import { definePlugin } from '../../src/core/plugin';

export default definePlugin({
  id: 'reset-password',
  routes: [
    {
      path: '/users/resetpassword',
      frame: 'bare',
      load: () => import(/* webpackChunkName: "plugin-reset-password" */ './pages/ResetPasswordPage'),
    },
  ],
  messages: {
    zh_CN: () => import(/* webpackChunkName: "messages-zh_CN" */ './messages/zh_CN.json'),
    en_US: () => import(/* webpackChunkName: "messages-en_US" */ './messages/en_US.json'),
  },
});
