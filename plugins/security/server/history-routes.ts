import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** The account's history: a page, and the CSV export (SECURITY_PATHS in ../contract). */
export const historyRoutes: FastifyPluginAsyncTypebox = async () => {};
