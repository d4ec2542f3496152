import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../../server/errors';
import { SuccessSchema } from '../../../schemas/common';
import {
  SshKeyCreateBodySchema,
  SshKeyIdParamsSchema,
  SshKeyListSchema,
  SshKeySchema,
  SshKeyUpdateBodySchema,
} from '../contract';
import { addKey, deleteKey, getKey, listKeys, updateKey } from './service';
import { gitSshInternalRoutes } from './internal-routes';

/**
 * The code-hosting key API on both host prefixes: `/uiless/proxy/codeup/…` (China editions) and
 * `/codeup/…` (global). The second is outside the API prefixes but declares its auth all the same.
 */
export const SSH_KEY_BASES = ['/uiless/proxy/codeup/api/v3/user/keys', '/codeup/api/v3/user/keys'];

/** SSH public keys of the signed-in user: list, add, read, edit, delete. */
export const sshKeyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;
  // Git over SSH's questions (the gate's internal API) come with the keys they are about.
  await app.register(gitSshInternalRoutes);
  for (const base of SSH_KEY_BASES) {
    app.get(
      base,
      {
        config: { auth: 'session' },
        schema: {
          tags: ['ssh-keys'],
          summary: 'The signed-in user’s SSH public keys, newest first (an array)',
          response: { 200: SshKeyListSchema, ...errorResponses },
        },
      },
      async (req) => listKeys(ctx, req.session!.user.id),
    );

    app.post(
      base,
      {
        // A new key needs a recent proof (re-authentication): a left-open session cannot add one.
        config: { auth: 'session', reauth: true },
        schema: {
          tags: ['ssh-keys'],
          summary: 'Adds an RSA (≥ 2048 bits) or ed25519 public key; the same key twice (anyone’s) is 409',
          body: SshKeyCreateBodySchema,
          response: { 201: SshKeySchema, ...errorResponses },
        },
      },
      async (req, reply) => {
        const { name, key, scope, expires_at } = req.body;
        const created = await addKey(ctx, req.session!.user.id, {
          name,
          key,
          scope: scope ?? 'read_write',
          expires_at,
        });
        return reply.code(201).send(created);
      },
    );

    app.get(
      `${base}/:id`,
      {
        config: { auth: 'session' },
        schema: {
          tags: ['ssh-keys'],
          summary: 'One of the user’s keys (another user’s key is 404)',
          params: SshKeyIdParamsSchema,
          response: { 200: SshKeySchema, ...errorResponses },
        },
      },
      async (req) => getKey(ctx, req.session!.user.id, req.params.id),
    );

    app.put(
      `${base}/:id`,
      {
        config: { auth: 'session' },
        schema: {
          tags: ['ssh-keys'],
          summary: 'Renames a key or changes its scope or expiry (another user’s key is 404)',
          params: SshKeyIdParamsSchema,
          body: SshKeyUpdateBodySchema,
          response: { 200: SshKeySchema, ...errorResponses },
        },
      },
      async (req) => updateKey(ctx, req.session!.user.id, req.params.id, req.body),
    );

    app.delete(
      `${base}/:id`,
      {
        config: { auth: 'session' },
        schema: {
          tags: ['ssh-keys'],
          summary: 'Deletes a key (another user’s key is 404)',
          params: SshKeyIdParamsSchema,
          response: { 200: SuccessSchema, ...errorResponses },
        },
      },
      async (req) => {
        await deleteKey(ctx, req.session!.user.id, req.params.id);
        return { success: true };
      },
    );
  }
};
