import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../context';
import { AppError, errorResponses } from '../errors';
import { addressSubject } from '../http/rate-limit';
import { storeUsageLogs } from '../services/usage-logs';

/** Most entries one post may carry (the web collector batches at most 200). */
export const MAX_LOG_ENTRIES = 200;
/** Largest body of one post, in bytes (answered 413 beyond). */
export const LOG_BODY_LIMIT = 64 * 1024;
/** Entries one client address may have stored per minute, signed in or not. */
export const LOG_ROWS_PER_ADDRESS_MINUTE = 600;
/** Entries one signed-in user may have stored per minute, from wherever. */
export const LOG_ROWS_PER_USER_MINUTE = 300;
/** Kilobytes of entries one client address may have stored per minute. */
export const LOG_KB_PER_ADDRESS_MINUTE = 1024;

/**
 * Counts `units` against a limit shared by every instance (the database's counters); over it, a 429 with
 * `Retry-After` and "try again in one minute".
 */
async function charge(ctx: AppContext, key: string, limit: number, units: number): Promise<void> {
  const hit = await ctx.rateLimits.hit(key, limit, 60_000, units);
  if (hit.allowed) return;
  const seconds = Math.max(1, Math.ceil((hit.resetAt - ctx.clock.now().getTime()) / 1000));
  throw new AppError(429, 'TooManyRequestsMinute', {}, { 'retry-after': String(seconds) });
}

/** Log collection for the web app's usage and performance tracker. */
export const logRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;
  app.post(
    '/api/logs',
    {
      // Anyone may post (the login page too); X-Requested-With is required so other sites cannot.
      config: { auth: 'public', csrf: 'xhr' },
      bodyLimit: LOG_BODY_LIMIT,
      schema: {
        tags: ['logs'],
        summary:
          'Collects a batch of usage or performance log entries from the web app (at most 64 KB; per minute at most ' +
          `${LOG_ROWS_PER_ADDRESS_MINUTE} entries and ${LOG_KB_PER_ADDRESS_MINUTE} KB per client address and ` +
          `${LOG_ROWS_PER_USER_MINUTE} entries per user; kept 30 days; secrets in URLs are dropped)`,
        body: Type.Array(Type.Record(Type.String({ maxLength: 100 }), Type.Unknown()), {
          minItems: 1,
          maxItems: MAX_LOG_ENTRIES,
        }),
        response: { 204: Type.Null(), ...errorResponses },
      },
    },
    async (req, reply) => {
      const rows = req.body.length;
      const kb = Math.ceil(Buffer.byteLength(JSON.stringify(req.body)) / 1024);
      const address = addressSubject(ctx, req.ip);
      await charge(ctx, `logs-rows:ip:${address}`, LOG_ROWS_PER_ADDRESS_MINUTE, rows);
      await charge(ctx, `logs-kb:ip:${address}`, LOG_KB_PER_ADDRESS_MINUTE, kb);
      const userId = req.session?.user.id ?? null;
      if (userId) await charge(ctx, `logs-rows:user:${userId}`, LOG_ROWS_PER_USER_MINUTE, rows);
      await storeUsageLogs(ctx, userId, req.body);
      return reply.code(204).send(null);
    },
  );
};
