import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { errorResponses } from '../../../server/errors';
import { AuthorizedKeysQuerySchema, GitAccessBodySchema, GitAccessSchema } from '../contract';
import { authorizedKeysLine, checkGitAccess } from './gate-service';

/** Where the git gate's questions live: under /internal/, so only a holder of INTERNAL_API_SECRET reaches them. */
export const GIT_SSH_INTERNAL_BASE = '/internal/v1/ssh';

/**
 * The internal API of git over SSH (issue 42), for the programs sshd starts (server/git-gate): the
 * AuthorizedKeysCommand's "which account is this key" and the gate's "may this key do this here now".
 */
export const gitSshInternalRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  app.get(
    `${GIT_SSH_INTERNAL_BASE}/authorized-keys`,
    {
      config: { auth: 'internal' },
      schema: {
        summary: 'authorized_keys lines (text/plain) for a presented key, forced to the gate; empty when unknown',
        querystring: AuthorizedKeysQuerySchema,
        response: { 200: Type.String(), ...errorResponses },
      },
    },
    async (req, reply) => {
      const line = await authorizedKeysLine(ctx, req.query.type, req.query.key, req.query.gate);
      return reply.type('text/plain; charset=utf-8').header('cache-control', 'no-store').send(line);
    },
  );

  app.post(
    `${GIT_SSH_INTERNAL_BASE}/git-access`,
    {
      config: { auth: 'internal' },
      schema: {
        summary: 'May this key run this git command on this repository now, from this address (recorded as a use)',
        body: GitAccessBodySchema,
        response: { 200: GitAccessSchema, ...errorResponses },
      },
    },
    async (req, reply) => {
      const answer = await checkGitAccess(ctx, req.body, req.locale, (locale) => (req.locale = locale));
      return reply.header('cache-control', 'no-store').send(answer);
    },
  );
};
