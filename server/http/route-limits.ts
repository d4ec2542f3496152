import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { addressSubject, enforceLimit } from './rate-limit';

/**
 * A route's own limits, declared in its `config.limit`: at most `perAddress` requests per window from one client
 * address and `perUser` from one signed-in user (or token owner), counted in the database so every instance
 * shares them. Over either: 429 with Retry-After and the catalogue's "try again in one minute" (or "later").
 */
export interface RouteLimit {
  /**
   * Names the counters (`<name>:ip:<address or IPv6 network>`, `<name>:user:<id>`); routes sharing a budget share a
   * name.
   */
  name: string;
  perAddress?: number;
  perUser?: number;
  /** The window (ms); one minute unless given. */
  windowMs?: number;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Limits per client address and per user, checked after authentication and before the body is read. */
    limit?: RouteLimit;
  }
}

/** Checks every route's declared limits; registered after the pipeline's authentication hook, so the user is known. */
export function installRouteLimits(app: FastifyInstance, ctx: AppContext): void {
  app.addHook('onRequest', async (req) => {
    const limit = req.routeOptions.config?.limit;
    if (!limit) return;
    const windowMs = limit.windowMs ?? 60_000;
    const code = windowMs === 60_000 ? 'TooManyRequestsMinute' : 'TooManyRequests';
    if (limit.perAddress !== undefined) {
      const key = `${limit.name}:ip:${addressSubject(ctx, req.ip)}`;
      await enforceLimit(ctx, { key, limit: limit.perAddress, windowMs }, code);
    }
    const userId = req.session?.user.id ?? req.token?.user.id;
    if (limit.perUser !== undefined && userId) {
      await enforceLimit(ctx, { key: `${limit.name}:user:${userId}`, limit: limit.perUser, windowMs }, code);
    }
  });
}
