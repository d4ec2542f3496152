import { defineServerPlugin } from '../../../server/plugin';
import { loginRoutes } from './routes';
import { messages } from './messages';

/**
 * Server slice of the login plugin, discovered by its folder (server/plugin-loader.ts).
 * Sign-in, sign-out and password change.
 */
export default defineServerPlugin({
  id: 'login',
  routes: loginRoutes,
  messages,
});
