import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { loginRoutes } from '../plugins/login/server/routes';

/**
 * The server halves of feature plugins, registered by `buildApp`. This file is the one place the
 * service core learns about plugins (the wiring), mirroring the web app's generated plugin list.
 */
export const pluginServers: Array<{ id: string; routes: FastifyPluginAsyncTypebox }> = [
  { id: 'login', routes: loginRoutes },
];
