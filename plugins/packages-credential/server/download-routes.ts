import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError, errorResponses } from '../../../server/errors';
import { DownloadChecker, reportedAddress } from './downloads';

/** The internal endpoint nginx's `auth_request` (or a registry that can call out) asks about a download. */
export const DOWNLOAD_AUTH_PATH = '/internal/v1/packages/download-auth';

/** The realm clients are asked for credentials in (curl, npm and Maven answer a Basic challenge). */
export const DOWNLOAD_REALM = 'Artifact repository';

/** What the front door sets besides the client's own Authorization and User-Agent (docs/operations.md). */
const DownloadAuthHeadersSchema = Type.Object({
  authorization: Type.Optional(Type.String()),
  'user-agent': Type.Optional(Type.String()),
  'x-original-uri': Type.Optional(Type.String({ description: 'The path the client asked for ($request_uri)' })),
  'x-original-method': Type.Optional(Type.String({ maxLength: 16, description: "The client's method" })),
  'x-real-ip': Type.Optional(Type.String({ maxLength: 64, description: "The client's address ($remote_addr)" })),
});

/**
 * `GET /internal/v1/packages/download-auth`: 204 (with `x-auth-user`) when the Basic credentials are the account's
 * artifact password in force, else 401 with a Basic challenge (403 when guessing is limited or the account must change
 * its password). Internal: the front door presents INTERNAL_API_SECRET; never reachable with a browser's cookies.
 */
export const downloadAuthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const checker = new DownloadChecker(app.ctx);
  app.get(
    DOWNLOAD_AUTH_PATH,
    {
      config: { auth: 'internal' },
      schema: {
        tags: ['packages-credential'],
        summary: "Judges a download's Basic credentials against the artifact password (nginx auth_request)",
        headers: DownloadAuthHeadersSchema,
        response: { 204: Type.Null(), ...errorResponses },
      },
    },
    async (req, reply) => {
      const h = req.headers;
      const verdict = await checker.check({
        authorization: h.authorization,
        uri: h['x-original-uri'] ?? '/',
        method: h['x-original-method'] ?? 'GET',
        address: reportedAddress(h['x-real-ip'], req.ip),
        client: h['user-agent'] ?? null,
      });
      if (verdict.ok) return reply.code(204).header('x-auth-user', verdict.username).send();
      const challenge = { 'www-authenticate': `Basic realm="${DOWNLOAD_REALM}", charset="UTF-8"` };
      const retry: Record<string, string> = verdict.retryAfterMs
        ? { 'retry-after': String(Math.ceil(verdict.retryAfterMs / 1000)) }
        : {};
      throw new AppError(verdict.status, verdict.code, {}, { ...challenge, ...retry });
    },
  );
};
