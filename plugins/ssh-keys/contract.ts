import { Type, type Static } from '@sinclair/typebox';
import { closed } from '../../schemas/common';
import { LastUseSchema } from '../../schemas/credential-uses';
import { GIT_REPOSITORY_PATH_MAX, SSH_KEY_ID_MAX, SSH_KEY_MAX_LENGTH, SSH_KEY_NAME_MAX } from './limits';

/**
 * The SSH key slice's wire shapes, once: the routes hand these schemas to Fastify, the service and
 * the page use their static types (the page with `import type` only; plain limits come from `./limits`).
 */
export * from './limits';

/** What a key may do: clone/pull only, or also push. */
export const SshKeyScopeSchema = Type.Union([Type.Literal('read_only'), Type.Literal('read_write')]);
/** What a key may do: clone/pull only, or also push. */
export type SshKeyScope = Static<typeof SshKeyScopeSchema>;

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
    last_used_at: Type.Union([Type.String(), Type.Null()], {
      description: 'ISO time of its last accepted use by git over SSH; null when never used',
    }),
    last_use: Type.Union([LastUseSchema, Type.Null()], {
      description: 'Its last accepted use (time, client address, client) within the 90 days uses are kept',
    }),
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

// The internal API of git over SSH (issue 42): what the gate programs started by sshd ask, with INTERNAL_API_SECRET.
// Under /internal/, so no part of the public OpenAPI document.

/** The git commands the gate lets through: upload-pack (clone, fetch) and upload-archive read, receive-pack pushes. */
export const GIT_SSH_COMMANDS = ['git-upload-pack', 'git-upload-archive', 'git-receive-pack'] as const;
/** A git command over SSH the gate lets through. */
export type GitSshCommand = (typeof GIT_SSH_COMMANDS)[number];

/** `GET /internal/v1/ssh/authorized-keys`: the key sshd's AuthorizedKeysCommand was given (`%t %k`), and the gate. */
export const AuthorizedKeysQuerySchema = Type.Object(
  {
    type: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9@._-]+$' }),
    key: Type.String({ minLength: 1, maxLength: SSH_KEY_MAX_LENGTH, pattern: '^[A-Za-z0-9+/]+={0,2}$' }),
    gate: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 512,
        pattern: '^[A-Za-z0-9._/-]+$',
        description: 'The forced command: the gate program (absolute path or a name on PATH); default `git-gate`',
      }),
    ),
  },
  closed,
);
/** The AuthorizedKeysCommand's question. */
export type AuthorizedKeysQuery = Static<typeof AuthorizedKeysQuerySchema>;

/** Text without control characters (what is recorded and shown of a client's words). */
const NO_CONTROL = '^[^\\u0000-\\u001f\\u007f]*$';

/** `POST /internal/v1/ssh/git-access`: may this key run this git command on this repository now, from there. */
export const GitAccessBodySchema = Type.Object(
  {
    key_id: Type.String({ minLength: 1, maxLength: SSH_KEY_ID_MAX, pattern: '^[A-Za-z0-9_-]+$' }),
    command: Type.Union(GIT_SSH_COMMANDS.map((c) => Type.Literal(c))),
    repository: Type.String({
      minLength: 1,
      maxLength: GIT_REPOSITORY_PATH_MAX,
      pattern: NO_CONTROL,
      description: 'As the client named it: `<organisation>/<repo>.git`, a leading `/` allowed (ssh:// URLs)',
    }),
    address: Type.String({ minLength: 1, maxLength: 64, description: 'The client address from SSH_CONNECTION' }),
    client: Type.Optional(
      Type.String({ maxLength: 200, pattern: NO_CONTROL, description: 'What the gate knows of the client' }),
    ),
  },
  closed,
);
/** The gate's question. */
export type GitAccessBody = Static<typeof GitAccessBodySchema>;

/** The gate's answer when the key may: the repository's path under the repository root, and whose key it is. */
export const GitAccessSchema = Type.Object(
  {
    repository: Type.String({ description: '`<organisation name>/<repo>.git`, the organisation as it is spelled' }),
    username: Type.String(),
    locale: Type.Union([Type.Literal('zh_CN'), Type.Literal('en_US')], {
      description: 'The member’s language, for what the gate itself says (a repository missing on disk)',
    }),
  },
  closed,
);
/** The gate's answer when the key may. */
export type GitAccess = Static<typeof GitAccessSchema>;
