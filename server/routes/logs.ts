import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { newId } from '../auth/random';
import { errorResponses } from '../errors';

/** Most entries one post may carry (the web collector batches at most 200). */
export const MAX_LOG_ENTRIES = 200;
/** Largest stored entry, in characters of JSON; longer ones are cut (the client caps fields already). */
export const MAX_LOG_ENTRY_CHARS = 120_000;

/** Log collection for the web app's usage and performance tracker. */
export const logRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;
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
      const now = ctx.clock.now().getTime();
      const userId = req.session?.user.id ?? null;
      await ctx.db
        .insertInto('usage_logs')
        .values(
          req.body.map((entry) => ({
            id: newId(),
            user_id: userId,
            received_at: now,
            entry: JSON.stringify(entry).slice(0, MAX_LOG_ENTRY_CHARS),
          })),
        )
        .execute();
      return reply.code(204).send(null);
    },
  );
};
