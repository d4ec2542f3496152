import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError, errorResponses } from '../../../server/errors';
import { PERMISSION_LEVELS, scopeTree, type ScopeNode } from '../../../server/auth/token-scopes';
import {
  allTokens,
  createToken,
  MAX_PAGE_SIZE,
  MAX_TOKENS_PER_USER,
  removeToken,
  searchTokens,
  TOKEN_DESCRIPTION_MAX,
  TOKEN_NAME_MAX,
  updateToken,
} from './service';

const closed = { additionalProperties: false } as const;
const IsoTime = Type.String({ format: 'date-time', maxLength: 40 });

/** A token as listed; `token` appears only in the answer to its creation. */
export const TokenSchema = Type.Object(
  {
    token_id: Type.String(),
    name: Type.String(),
    description: Type.String(),
    token_scopes: Type.Array(Type.String()),
    created_at: Type.String(),
    expires_at: Type.Union([Type.String(), Type.Null()]),
    last_used_at: Type.Union([Type.String(), Type.Null()]),
    expired: Type.Boolean(),
    token: Type.Optional(Type.String({ description: 'The secret: present once, in the creation answer' })),
  },
  closed,
);

/** Create/edit body; `created_at` is accepted for compatibility and ignored (the server clock decides). */
export const TokenBody = Type.Object(
  {
    name: Type.String({ maxLength: TOKEN_NAME_MAX }),
    description: Type.Optional(Type.String({ maxLength: TOKEN_DESCRIPTION_MAX })),
    token_scopes: Type.Array(Type.String({ maxLength: 100 }), { maxItems: 100 }),
    expires_at: IsoTime,
    created_at: Type.Optional(IsoTime),
  },
  closed,
);

/** List request: expired tokens included unless told otherwise; page size 1..100 (default 20). */
export const SearchBody = Type.Object(
  {
    include_expired: Type.Boolean({ default: true }),
    pagination: Type.Object(
      {
        current_page: Type.Integer({ minimum: 1, maximum: 100000, default: 1 }),
        page_size: Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: 20 }),
      },
      { ...closed, default: {} },
    ),
  },
  closed,
);

const scopeFields = {
  scope_key: Type.String(),
  scope_operate: Type.Union([Type.Literal('read'), Type.Literal('read_write')]),
  scope_desc: Type.String(),
};
/** The catalogue is two levels deep: areas, then resources (whose `sub_scopes` is always empty). */
const ScopeNodeSchema = Type.Object(
  {
    ...scopeFields,
    sub_scopes: Type.Array(
      Type.Object({ ...scopeFields, sub_scopes: Type.Array(Type.Object({}, closed), { maxItems: 0 }) }, closed),
    ),
  },
  closed,
);

const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }, closed);
const Ok = Type.Object({ success: Type.Boolean() }, closed);
const tags = ['access-tokens'];

/** Personal access tokens at the suite's paths: list, create, edit, delete, scopes, permissions, legacy calls. */
export const accessTokenRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;
  const scopes = (locale: 'zh_CN' | 'en_US'): ScopeNode[] => scopeTree(locale);

  app.post(
    '/users/ajax/v1/my/tokens::search',
    {
      config: { auth: 'session' },
      schema: {
        tags,
        summary: 'One page of my tokens, newest first (expired ones unless include_expired is false)',
        body: SearchBody,
        response: {
          200: Type.Object(
            {
              access_tokens: Type.Array(TokenSchema),
              pages: Type.Object(
                { current_page: Type.Integer(), page_size: Type.Integer(), total_size: Type.Integer() },
                closed,
              ),
            },
            closed,
          ),
          ...errorResponses,
        },
      },
    },
    async (req) =>
      searchTokens(ctx, req.session!.user.id, {
        includeExpired: req.body.include_expired,
        currentPage: req.body.pagination.current_page,
        pageSize: req.body.pagination.page_size,
      }),
  );

  for (const path of ['/users/ajax/v1/my/tokens', '/users/ajax/v1/tokens']) {
    const legacy = path === '/users/ajax/v1/tokens';
    app.post(
      path,
      {
        config: { auth: 'session' },
        schema: {
          tags,
          summary: legacy
            ? 'Legacy (v1 screen): same as POST /users/ajax/v1/my/tokens'
            : 'Create a token; the answer carries its value once (only a SHA-256 digest is stored)',
          body: TokenBody,
          response: { 200: TokenSchema, ...errorResponses },
        },
      },
      async (req) => createToken(ctx, req.session!.user.id, req.body),
    );
    app.put(
      `${path}/:id`,
      {
        config: { auth: 'session' },
        schema: {
          tags,
          summary: legacy
            ? 'Legacy (v1 screen): same as PUT /users/ajax/v1/my/tokens/{id}'
            : 'Edit name, scopes and expiry of my token (404 for anyone else’s; expired tokens cannot be edited)',
          params: IdParams,
          body: TokenBody,
          response: { 200: TokenSchema, ...errorResponses },
        },
      },
      async (req) => updateToken(ctx, req.session!.user.id, req.params.id, req.body),
    );
    app.delete(
      `${path}/:id`,
      {
        config: { auth: 'session' },
        schema: {
          tags,
          summary: legacy
            ? 'Legacy (v1 screen): same as DELETE /users/ajax/v1/my/tokens/{id}'
            : 'Delete my token; it stops working at once (404 for anyone else’s)',
          params: IdParams,
          response: { 200: Ok, ...errorResponses },
        },
      },
      async (req) => {
        await removeToken(ctx, req.session!.user.id, req.params.id);
        return { success: true };
      },
    );
  }

  app.get(
    '/users/ajax/v1/tokens::scopes',
    {
      config: { auth: 'session' },
      schema: {
        tags,
        summary: 'The scope catalogue as a tree (areas → resources), each read-only or read/write',
        description:
          'Descriptions follow `locale` when given (the page sends its own language), else the request locale.',
        querystring: Type.Object(
          { locale: Type.Optional(Type.Union([Type.Literal('zh_CN'), Type.Literal('en_US')])) },
          closed,
        ),
        response: { 200: Type.Object({ token_scopes: Type.Array(ScopeNodeSchema) }, closed), ...errorResponses },
      },
    },
    async (req) => ({ token_scopes: scopes(req.query.locale ?? req.locale) }),
  );

  app.get(
    '/users/ajax/v1/tokens::permissions',
    {
      config: { auth: 'session' },
      schema: {
        tags,
        summary: 'Permission levels a scope can be granted at, and the limits the page applies',
        response: {
          200: Type.Object(
            {
              permissions: Type.Array(
                Type.Object({ permission_key: Type.String(), permission_desc: Type.String() }, closed),
              ),
              expiry_presets_days: Type.Array(Type.Integer()),
              name_max_length: Type.Integer(),
              description_max_length: Type.Integer(),
              max_tokens: Type.Integer(),
            },
            closed,
          ),
          ...errorResponses,
        },
      },
    },
    async (req) => ({
      permissions: PERMISSION_LEVELS.map((p) => ({ permission_key: p.key, permission_desc: p.desc[req.locale] })),
      expiry_presets_days: [7, 30, 60, 90],
      name_max_length: TOKEN_NAME_MAX,
      description_max_length: TOKEN_DESCRIPTION_MAX,
      max_tokens: MAX_TOKENS_PER_USER,
    }),
  );

  app.post(
    '/users/ajax/v1/tokens::batch',
    {
      config: { auth: 'session' },
      schema: {
        tags,
        summary: 'All tokens of a user (expired included) plus the scope tree, for the legacy screen',
        description:
          'Read-only. `user_id` must be the signed-in user; any other id answers 404 as if it did not exist, ' +
          'so nobody can list or probe someone else’s tokens.',
        body: Type.Object({ user_id: Type.String({ minLength: 1, maxLength: 64 }) }, closed),
        response: {
          200: Type.Object(
            { access_tokens: Type.Array(TokenSchema), token_scopes: Type.Array(ScopeNodeSchema) },
            closed,
          ),
          ...errorResponses,
        },
      },
    },
    async (req) => {
      const me = req.session!.user.id;
      if (req.body.user_id !== me) throw new AppError(404, 'NotFound');
      return { access_tokens: await allTokens(ctx, me), token_scopes: scopes(req.locale) };
    },
  );
};
