import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../errors';
import { storeUsageLogs } from '../services/usage-logs';

/** Most entries one post may carry (the web collector batches at most 200). */
export const MAX_LOG_ENTRIES = 200;

/** Log collection for the web app's usage and performance tracker. */
export const logRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/api/logs',
    {
      // Anyone may post (the login page too); X-Requested-With is required so other sites cannot.
      config: { auth: 'public', csrf: 'xhr' },
      bodyLimit: 512 * 1024,
      schema: {
        tags: ['logs'],
        summary: 'Collects a batch of usage or performance log entries from the web app',
        body: Type.Array(Type.Record(Type.String({ maxLength: 100 }), Type.Unknown()), {
          minItems: 1,
          maxItems: MAX_LOG_ENTRIES,
        }),
        response: { 204: Type.Null(), ...errorResponses },
      },
    },
    async (req, reply) => {
      await storeUsageLogs(app.ctx, req.session?.user.id ?? null, req.body);
      return reply.code(204).send(null);
    },
  );
};
