import { Type, type Static } from '@sinclair/typebox';
import { closed } from '../../schemas/common';
import { SSH_KEY_ID_MAX, SSH_KEY_MAX_LENGTH, SSH_KEY_NAME_MAX } from './limits';

/**
 * The SSH key slice's wire shapes, once: the routes hand these schemas to Fastify, the service and
 * the page use their static types (the page with `import type` only; plain limits come from `./limits`).
 */
export * from './limits';

/** What a key may do: clone/pull only, or also push. */
export const SshKeyScopeSchema = Type.Union([Type.Literal('read_only'), Type.Literal('read_write')]);
/** What a key may do: clone/pull only, or also push. */
export type SshKeyScope = Static<typeof SshKeyScopeSchema>;

const NullableTime = Type.Union([Type.String(), Type.Null()]);

/** One SSH public key as the code-hosting API answers it. */
export const SshKeySchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    key: Type.String({ description: 'The public key, one line' }),
    key_type: Type.String(),
    fingerprint: Type.String({
      description: '`SHA256:…` as `ssh-keygen -lf` prints it, so users can compare with their machine',
    }),
    scope: SshKeyScopeSchema,
    expires_at: Type.Union([Type.String(), Type.Null()], { description: 'ISO time; null means the key never expires' }),
    last_used_at: NullableTime,
    created_at: Type.String(),
    expired: Type.Boolean({ description: 'Past its expiry: code hosting refuses it' }),
  },
  closed,
);
/** One SSH public key of the user. */
export type SshKey = Static<typeof SshKeySchema>;

/** The user's keys: the list answer is an array. */
export const SshKeyListSchema = Type.Array(SshKeySchema);

const ExpiresAt = Type.Union([Type.String({ maxLength: 40 }), Type.Null()]);

/** Create body: name and key required; scope defaults to read/write; expiry optional (null = never). */
export const SshKeyCreateBodySchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: SSH_KEY_NAME_MAX }),
    // Longer pastes still reach the service, which answers with the precise 'over 5000 characters' message.
    key: Type.String({ minLength: 1, maxLength: SSH_KEY_MAX_LENGTH * 4 }),
    scope: Type.Optional(SshKeyScopeSchema),
    expires_at: Type.Optional(ExpiresAt),
  },
  closed,
);
/** What adding a key sends; the key itself cannot be edited later. */
export type SshKeyCreateBody = Static<typeof SshKeyCreateBodySchema>;

/** Edit body: name, scope, expiry. */
export const SshKeyUpdateBodySchema = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: SSH_KEY_NAME_MAX })),
    scope: Type.Optional(SshKeyScopeSchema),
    expires_at: Type.Optional(ExpiresAt),
  },
  closed,
);
/** What editing a key sends. */
export type SshKeyUpdateBody = Static<typeof SshKeyUpdateBodySchema>;

/** The key named in the path. */
export const SshKeyIdParamsSchema = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: SSH_KEY_ID_MAX }) },
  closed,
);
/** Static type of the key path params. */
export type SshKeyIdParams = Static<typeof SshKeyIdParamsSchema>;
