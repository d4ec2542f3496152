import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../../server/errors';
import { CredentialHealthSchema, RevokeStaleBodySchema, RevokeStaleResultSchema, SECURITY_PATHS } from '../contract';
import { credentialHealth, revokeStale } from './health-service';
import { routePath } from './route-path';

const tags = ['security'];

/** The account's credential health and "revoke all stale" (SECURITY_PATHS in ../contract). */
export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  app.get(
    SECURITY_PATHS.credentialHealth,
    {
      config: { auth: 'session' },
      schema: {
        tags,
        summary:
          'My personal access tokens, SSH keys, artifact-repository password and sessions, each with its creation, ' +
          'expiry, last use and marks: never used, unused for 30 or 90 days, expiring within 7 days, expired; `stale` ' +
          'says what "revoke all stale" takes (expired, or unused for 30 days; never this call’s session)',
        response: { 200: CredentialHealthSchema, ...errorResponses },
      },
    },
    async (req) => credentialHealth(ctx, req.session!.user.id, req.session!.idHash),
  );

  app.post(
    routePath(SECURITY_PATHS.revokeStale),
    {
      config: { auth: 'session', reauth: true },
      schema: {
        tags,
        summary:
          'Revoke my stale credentials: tokens and SSH keys deleted, the artifact-repository password removed, stale ' +
          'sessions signed out (never this one). Staleness is judged again now: with `items` only those of them still ' +
          'stale go (one used meanwhile stays); without, every stale one. Answers what went and how many named stayed',
        body: RevokeStaleBodySchema,
        response: { 200: RevokeStaleResultSchema, ...errorResponses },
      },
    },
    async (req) => revokeStale(ctx, req.session!.user.id, req.session!.idHash, req.body.items),
  );
};
