import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** Third-party sign-in (OAuth 2.0 code flow with state and PKCE) and the pending bind. (Being written.) */
export const oauthRoutes: FastifyPluginAsyncTypebox = async () => {};
