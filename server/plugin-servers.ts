import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { loginRoutes } from '../plugins/login/server/routes';
import { profileRoutes } from '../plugins/profile/server/routes';
import { accessTokenRoutes } from '../plugins/access-tokens/server/routes';
import { sshKeyRoutes } from '../plugins/ssh-keys/server/routes';
import { packagesCredentialRoutes } from '../plugins/packages-credential/server/routes';
import { identityRoutes } from '../plugins/third-party/server/routes';

/**
 * The server halves of feature plugins, registered by `buildApp`. This file is the one place the
 * service core learns about plugins (the wiring), mirroring the web app's generated plugin list.
 */
export const pluginServers: Array<{ id: string; routes: FastifyPluginAsyncTypebox }> = [
  { id: 'login', routes: loginRoutes },
  { id: 'profile', routes: profileRoutes },
  { id: 'access-tokens', routes: accessTokenRoutes },
  { id: 'ssh-keys', routes: sshKeyRoutes },
  { id: 'packages-credential', routes: packagesCredentialRoutes },
  { id: 'third-party', routes: identityRoutes },
];
