import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../../server/errors';
import { addKey, deleteKey, getKey, listKeys, SSH_KEY_MAX_LENGTH, updateKey } from './service';

const Scope = Type.Union([Type.Literal('read_only'), Type.Literal('read_write')]);
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

/** One SSH key as the code-hosting API answers it. */
export const SshKeySchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    key: Type.String(),
    key_type: Type.String(),
    fingerprint: Type.String(),
    scope: Scope,
    expires_at: Nullable(Type.String()),
    last_used_at: Nullable(Type.String()),
    created_at: Type.String(),
    expired: Type.Boolean(),
  },
  { additionalProperties: false },
);

/** Create body: name and key required; scope defaults to read/write; expiry optional (null = never). */
export const CreateSshKeyBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    // Longer pastes still reach the service, which answers with the precise 'over 5000 characters' message.
    key: Type.String({ minLength: 1, maxLength: SSH_KEY_MAX_LENGTH * 4 }),
    scope: Type.Optional(Scope),
    expires_at: Type.Optional(Nullable(Type.String({ maxLength: 40 }))),
  },
  { additionalProperties: false },
);

/** Edit body: name, scope, expiry. */
export const UpdateSshKeyBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    scope: Type.Optional(Scope),
    expires_at: Type.Optional(Nullable(Type.String({ maxLength: 40 }))),
  },
  { additionalProperties: false },
);

const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });

/**
 * The code-hosting key API on both host prefixes: `/uiless/proxy/codeup/…` (China editions) and
 * `/codeup/…` (global). The second is outside the API prefixes but declares its auth all the same.
 */
export const SSH_KEY_BASES = ['/uiless/proxy/codeup/api/v3/user/keys', '/codeup/api/v3/user/keys'];

/** SSH public keys of the signed-in user: list, add, read, edit, delete. */
export const sshKeyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;
  for (const base of SSH_KEY_BASES) {
    app.get(
      base,
      {
        config: { auth: 'session' },
        schema: {
          tags: ['ssh-keys'],
          summary: 'The signed-in user’s SSH public keys, newest first (an array)',
          response: { 200: Type.Array(SshKeySchema), ...errorResponses },
        },
      },
      async (req) => listKeys(ctx, req.session!.user.id),
    );

    app.post(
      base,
      {
        config: { auth: 'session' },
        schema: {
          tags: ['ssh-keys'],
          summary: 'Adds an RSA (≥ 2048 bits) or ed25519 public key; the same key twice (anyone’s) is 409',
          body: CreateSshKeyBody,
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
          params: IdParams,
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
          params: IdParams,
          body: UpdateSshKeyBody,
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
          params: IdParams,
          response: {
            200: Type.Object({ success: Type.Boolean() }, { additionalProperties: false }),
            ...errorResponses,
          },
        },
      },
      async (req) => {
        await deleteKey(ctx, req.session!.user.id, req.params.id);
        return { success: true };
      },
    );
  }
};
