import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** The account's sessions and the browsers the lockout trusts (SECURITY_PATHS in ../contract). */
export const sessionRoutes: FastifyPluginAsyncTypebox = async () => {};
