import { Type, type Static } from '@sinclair/typebox';
import { closed, LocaleSchema } from '../../schemas/common';
import { LastUseSchema } from '../../schemas/credential-uses';
import {
  TOKEN_DESCRIPTION_MAX,
  TOKEN_DESCRIPTION_MIN,
  TOKEN_GRACE_MINUTES_MAX,
  TOKEN_ID_MAX,
  TOKEN_NAME_MAX,
  TOKEN_PAGE_SIZE_DEFAULT,
  TOKEN_PAGE_SIZE_MAX,
  TOKEN_SCOPE_KEY_MAX,
  TOKEN_SCOPES_MAX,
} from './limits';

/**
 * The personal-access-token slice's wire shapes, once: the routes hand these schemas to Fastify, the
 * service and the page use their static types (the page with `import type` only, so TypeBox never
 * reaches a bundle; plain limits come from `./limits`).
 */
export * from './limits';

/** A token as listed; `token` (the secret) appears only in the answer to its creation. */
export const AccessTokenSchema = Type.Object(
  {
    token_id: Type.String(),
    name: Type.String(),
    description: Type.String(),
    token_scopes: Type.Array(Type.String(), {
      description: 'Grants such as `codeup:repository:write` (write implies read)',
    }),
    created_at: Type.String(),
    expires_at: Type.Union([Type.String(), Type.Null()], {
      description: 'ISO time; the token stops working at this instant',
    }),
    last_used_at: Type.Union([Type.String(), Type.Null()], {
      description: 'ISO time of the last use (kept past the 90 days of recorded uses); null when never used',
    }),
    last_use: Type.Union([LastUseSchema, Type.Null()], {
      description: 'The last recorded use with its client address and client (90 days); null when none',
    }),
    expired: Type.Boolean({
      description: 'Decided by the server clock, so a wrong browser clock cannot make an expired token look editable',
    }),
    token: Type.Optional(Type.String({ description: 'The secret: present once, in the creation answer' })),
    replaced: Type.Optional(
      Type.Boolean({
        description:
          'Present (true) on a regenerated token whose old secret still works during its grace, until `expires_at`',
      }),
    ),
  },
  closed,
);
/** A personal access token as the service lists it. */
export type AccessToken = Static<typeof AccessTokenSchema>;

const Name = Type.String({ maxLength: TOKEN_NAME_MAX });
const Description = Type.String({ minLength: TOKEN_DESCRIPTION_MIN, maxLength: TOKEN_DESCRIPTION_MAX });
const grantFields = {
  token_scopes: Type.Array(Type.String({ maxLength: TOKEN_SCOPE_KEY_MAX }), { maxItems: TOKEN_SCOPES_MAX }),
  expires_at: Type.String({
    format: 'date-time',
    maxLength: 40,
    description: 'End of the chosen day minus 2 seconds, ISO',
  }),
};

/** Create body: name, description (1 to 200 characters), grants and expiry; the server clock sets the creation time. */
export const TokenBodySchema = Type.Object({ name: Name, description: Description, ...grantFields }, closed);
/** What the create form sends. */
export type TokenBody = Static<typeof TokenBodySchema>;

/** Edit body: as the create body, but a missing description keeps the stored one. */
export const TokenUpdateBodySchema = Type.Object(
  { name: Name, description: Type.Optional(Description), ...grantFields },
  closed,
);
/** What the edit form sends. */
export type TokenUpdateBody = Static<typeof TokenUpdateBodySchema>;

/** List request: expired tokens included unless told otherwise; page size 1..100 (default 20). */
export const TokenSearchBodySchema = Type.Object(
  {
    include_expired: Type.Boolean({ default: true }),
    pagination: Type.Object(
      {
        current_page: Type.Integer({ minimum: 1, maximum: 100000, default: 1 }),
        page_size: Type.Integer({ minimum: 1, maximum: TOKEN_PAGE_SIZE_MAX, default: TOKEN_PAGE_SIZE_DEFAULT }),
      },
      { ...closed, default: {} },
    ),
  },
  closed,
);
/** Static type of the list request (after defaults). */
export type TokenSearchBody = Static<typeof TokenSearchBodySchema>;

/** Position of a list page. */
export const TokenPagesSchema = Type.Object(
  { current_page: Type.Integer(), page_size: Type.Integer(), total_size: Type.Integer() },
  closed,
);
/** One page of the list. */
export const TokenPageSchema = Type.Object(
  { access_tokens: Type.Array(AccessTokenSchema), pages: TokenPagesSchema },
  closed,
);
/** One page of my tokens, newest first. */
export type TokenPage = Static<typeof TokenPageSchema>;

const scopeFields = {
  scope_key: Type.String(),
  scope_operate: Type.Union([Type.Literal('read'), Type.Literal('read_write')], {
    description: 'The strongest permission the scope can be granted: read-only, or read and write',
  }),
  scope_desc: Type.String(),
};
/** A resource of the catalogue: a leaf, whose `sub_scopes` is always empty. */
export const TokenScopeLeafSchema = Type.Object(
  { ...scopeFields, sub_scopes: Type.Array(Type.Unsafe<never>(Type.Object({}, closed)), { maxItems: 0 }) },
  closed,
);
/** A resource (leaf) of the scope catalogue. */
export type TokenScopeLeaf = Static<typeof TokenScopeLeafSchema>;
/** An area of the catalogue, holding its resources: the catalogue is two levels deep. */
export const TokenScopeAreaSchema = Type.Object(
  { ...scopeFields, sub_scopes: Type.Array(TokenScopeLeafSchema) },
  closed,
);
/** An area of the scope catalogue. */
export type TokenScopeArea = Static<typeof TokenScopeAreaSchema>;
/** A node of the scope catalogue: an area with resources, or a resource (empty `sub_scopes`). */
export type TokenScope = TokenScopeArea | TokenScopeLeaf;

/** Query of the scope catalogue: its descriptions follow `locale` when given. */
export const TokenScopesQuerySchema = Type.Object({ locale: Type.Optional(LocaleSchema) }, closed);
/** Static type of the scope catalogue query. */
export type TokenScopesQuery = Static<typeof TokenScopesQuerySchema>;

/** The scope catalogue as a tree. */
export const TokenScopesAnswerSchema = Type.Object({ token_scopes: Type.Array(TokenScopeAreaSchema) }, closed);
/** Static type of the scope catalogue answer. */
export type TokenScopesAnswer = Static<typeof TokenScopesAnswerSchema>;

/** Permission levels a scope can be granted at, and the limits the page applies. */
export const TokenPermissionsAnswerSchema = Type.Object(
  {
    permissions: Type.Array(Type.Object({ permission_key: Type.String(), permission_desc: Type.String() }, closed)),
    expiry_presets_days: Type.Array(Type.Integer()),
    name_max_length: Type.Integer(),
    description_max_length: Type.Integer(),
    max_tokens: Type.Integer(),
  },
  closed,
);
/** Static type of the permissions answer. */
export type TokenPermissionsAnswer = Static<typeof TokenPermissionsAnswerSchema>;

/** Legacy screen's list request: the signed-in user's own id. */
export const LegacyTokensBodySchema = Type.Object(
  { user_id: Type.String({ minLength: 1, maxLength: TOKEN_ID_MAX }) },
  closed,
);
/** Static type of the legacy list request. */
export type LegacyTokensBody = Static<typeof LegacyTokensBodySchema>;

/** Legacy screen's list: all tokens plus the scope tree. */
export const LegacyTokensAnswerSchema = Type.Object(
  { access_tokens: Type.Array(AccessTokenSchema), token_scopes: Type.Array(TokenScopeAreaSchema) },
  closed,
);
/** Static type of the legacy list answer. */
export type LegacyTokensAnswer = Static<typeof LegacyTokensAnswerSchema>;

/** The token named in the path. */
export const TokenIdParamsSchema = Type.Object({ id: Type.String({ minLength: 1, maxLength: TOKEN_ID_MAX }) }, closed);
/** Static type of the token path params. */
export type TokenIdParams = Static<typeof TokenIdParamsSchema>;

/** Regenerate body: the new secret's expiry, and how long the old secret keeps working (0 = it stops at once). */
export const TokenRegenerateBodySchema = Type.Object(
  {
    expires_at: grantFields.expires_at,
    grace_minutes: Type.Integer({
      minimum: 0,
      maximum: TOKEN_GRACE_MINUTES_MAX,
      description: 'Minutes the old secret keeps working (at most 24 h; never past its own expiry)',
    }),
  },
  closed,
);
/** What the regenerate dialog sends. */
export type TokenRegenerateBody = Static<typeof TokenRegenerateBodySchema>;

/** Re-create body: the expiry of the token made again from an expired one. */
export const TokenRecreateBodySchema = Type.Object({ expires_at: grantFields.expires_at }, closed);
/** What the re-create dialog sends. */
export type TokenRecreateBody = Static<typeof TokenRecreateBodySchema>;

/** Answer to a regeneration or a re-creation: the new token (with its secret, once) and what changed. */
export const TokenRenewalAnswerSchema = Type.Object(
  {
    access_token: AccessTokenSchema,
    previous_token_id: Type.String({ description: 'The token this one replaces' }),
    previous_stops_at: Type.String({
      description: 'When the old secret stops working (regenerate) or stopped (re-create: its expiry), ISO',
    }),
    dropped_scopes: Type.Array(Type.String(), {
      description: 'Grants of the old token the catalogue no longer offers, left out of the new one',
    }),
  },
  closed,
);
/** The renewed token and what changed. */
export type TokenRenewalAnswer = Static<typeof TokenRenewalAnswerSchema>;
