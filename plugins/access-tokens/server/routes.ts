import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError, errorResponses } from '../../../server/errors';
import { PERMISSION_LEVELS } from '../../../server/auth/token-scopes';
import { SuccessSchema } from '../../../schemas/common';
import {
  AccessTokenSchema,
  EXPIRY_PRESET_DAYS,
  LegacyTokensAnswerSchema,
  LegacyTokensBodySchema,
  MAX_TOKENS_PER_USER,
  TOKEN_DESCRIPTION_MAX,
  TOKEN_NAME_MAX,
  TokenBodySchema,
  TokenIdParamsSchema,
  TokenPageSchema,
  TokenPermissionsAnswerSchema,
  TokenRecreateBodySchema,
  TokenRegenerateBodySchema,
  TokenRenewalAnswerSchema,
  TokenScopesAnswerSchema,
  TokenScopesQuerySchema,
  TokenSearchBodySchema,
  TokenUpdateBodySchema,
} from '../contract';
import { allTokens, createToken, removeToken, scopeTree, searchTokens, updateToken } from './service';
import { recreateToken, regenerateToken } from './renewal';

const tags = ['access-tokens'];

/** Personal access tokens at the suite's paths: list, create, edit, delete, scopes, permissions, legacy calls. */
/** Token creations per user and per client address per minute (both create paths together). */
export const TOKEN_CREATE_LIMIT = { name: 'token-create', perUser: 60, perAddress: 120 };

export const accessTokenRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  app.post(
    '/users/ajax/v1/my/tokens::search',
    {
      config: { auth: 'session' },
      schema: {
        tags,
        summary: 'One page of my tokens, newest first (expired ones unless include_expired is false)',
        body: TokenSearchBodySchema,
        response: { 200: TokenPageSchema, ...errorResponses },
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
        // Both paths share one budget: creating is cheap for an attacker with a stolen session, costly to clean up.
        // A new credential needs a recent proof (re-authentication): a left-open session cannot mint one.
        config: { auth: 'session', reauth: true, limit: TOKEN_CREATE_LIMIT },
        schema: {
          tags,
          summary: legacy
            ? 'Legacy (v1 screen): same as POST /users/ajax/v1/my/tokens'
            : 'Create a token; the answer carries its value once (only a SHA-256 digest is stored)',
          body: TokenBodySchema,
          response: { 200: AccessTokenSchema, ...errorResponses },
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
          params: TokenIdParamsSchema,
          body: TokenUpdateBodySchema,
          response: { 200: AccessTokenSchema, ...errorResponses },
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
          params: TokenIdParamsSchema,
          response: { 200: SuccessSchema, ...errorResponses },
        },
      },
      async (req) => {
        await removeToken(ctx, req.session!.user.id, req.params.id);
        return { success: true };
      },
    );
  }

  // Rotation and renewal (issue 42): a new secret is a new credential, so both need a recent proof and share the
  // creation budget.
  app.post(
    '/users/ajax/v1/my/tokens/:id/regenerate',
    {
      config: { auth: 'session', reauth: true, limit: TOKEN_CREATE_LIMIT },
      schema: {
        tags,
        summary: 'Regenerate my live token: same name, description and scopes; a new secret (in the answer, once)',
        description:
          'The old secret stops at once (`grace_minutes` 0) or after the grace (at most 24 h, never past its own ' +
          'expiry); until then it is listed as replaced. 404 for anyone else’s token; 409 for an expired one.',
        params: TokenIdParamsSchema,
        body: TokenRegenerateBodySchema,
        response: { 200: TokenRenewalAnswerSchema, ...errorResponses },
      },
    },
    async (req) => regenerateToken(ctx, req.session!.user.id, req.params.id, req.body),
  );
  app.post(
    '/users/ajax/v1/my/tokens/:id/recreate',
    {
      config: { auth: 'session', reauth: true, limit: TOKEN_CREATE_LIMIT },
      schema: {
        tags,
        summary: 'Re-create my expired token with its scopes; a new secret (in the answer, once) and expiry',
        description:
          'Scopes the catalogue no longer offers are left out and named in `dropped_scopes`; the expired token ' +
          'is removed. 404 for anyone else’s token; 409 for one that has not expired.',
        params: TokenIdParamsSchema,
        body: TokenRecreateBodySchema,
        response: { 200: TokenRenewalAnswerSchema, ...errorResponses },
      },
    },
    async (req) => recreateToken(ctx, req.session!.user.id, req.params.id, req.body),
  );

  app.get(
    '/users/ajax/v1/tokens::scopes',
    {
      config: { auth: 'session' },
      schema: {
        tags,
        summary: 'The scope catalogue as a tree (areas → resources), each read-only or read/write',
        description:
          'Descriptions follow `locale` when given (the page sends its own language), else the request locale.',
        querystring: TokenScopesQuerySchema,
        response: { 200: TokenScopesAnswerSchema, ...errorResponses },
      },
    },
    async (req) => ({ token_scopes: scopeTree(req.query.locale ?? req.locale) }),
  );

  app.get(
    '/users/ajax/v1/tokens::permissions',
    {
      config: { auth: 'session' },
      schema: {
        tags,
        summary: 'Permission levels a scope can be granted at, and the limits the page applies',
        response: { 200: TokenPermissionsAnswerSchema, ...errorResponses },
      },
    },
    async (req) => ({
      permissions: PERMISSION_LEVELS.map((p) => ({ permission_key: p.key, permission_desc: p.desc[req.locale] })),
      expiry_presets_days: [...EXPIRY_PRESET_DAYS],
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
        body: LegacyTokensBodySchema,
        response: { 200: LegacyTokensAnswerSchema, ...errorResponses },
      },
    },
    async (req) => {
      const me = req.session!.user.id;
      if (req.body.user_id !== me) throw new AppError(404, 'NotFound');
      return { access_tokens: await allTokens(ctx, me), token_scopes: scopeTree(req.locale) };
    },
  );
};
