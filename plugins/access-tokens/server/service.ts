import type { ExpressionBuilder } from 'kysely';
import type { DB } from '../../../server/db/schema';
import { emitDueExpiries } from '../../../server/services/scheduler';
import type { AppContext } from '../../../server/context';
import type { LastCredentialUse } from '../../../server/auth/credential-uses';
import type { RevokedCredentials } from '../../../server/plugin';
import type { PersonalAccessTokensTable } from './tables';
import { AppError } from '../../../server/errors';
import { cleanText } from '../../../server/clean-text';
import { deleteToken, issueToken, type TokenRecord } from './tokens';
import { normalizeScopes, SCOPE_CATALOGUE } from '../../../server/auth/token-scopes';
import type { ServerLocale } from '../../../server/i18n/index';
import {
  MAX_TOKENS_PER_USER,
  TOKEN_DESCRIPTION_MAX,
  TOKEN_NAME_MAX,
  type AccessToken,
  type TokenBody,
  type TokenPage,
  type TokenScopeArea,
  type TokenUpdateBody,
} from '../contract';

/** The scope catalogue as the page's tree (areas → resources), described in the given language. */
export function scopeTree(locale: ServerLocale): TokenScopeArea[] {
  return SCOPE_CATALOGUE.map((area) => ({
    scope_key: area.key,
    scope_operate: area.resources.some((r) => r.operate === 'read_write') ? 'read_write' : 'read',
    scope_desc: area.desc[locale],
    sub_scopes: area.resources.map((r) => ({
      scope_key: r.key,
      scope_operate: r.operate,
      scope_desc: r.desc[locale],
      sub_scopes: [],
    })),
  }));
}

const iso = (ms: number | null) => (ms == null ? null : new Date(ms).toISOString());

/** The grants a row stores (a JSON array); anything else reads as none. */
export function parseScopes(json: string): string[] {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [];
  } catch {
    return [];
  }
}

/** Whether the token can no longer be used (the instant `expires_at` is reached it is expired). */
export function isExpired(expiresAt: number | null, now: number): boolean {
  return expiresAt != null && expiresAt <= now;
}

/** Shapes a stored row for the page (with its last recorded use, when the list read it); never includes the digest. */
export function toTokenView(
  row: Omit<PersonalAccessTokensTable, 'token_digest' | 'replaced_by'> & { replaced_by?: string | null },
  now: number,
  lastUse?: LastCredentialUse,
): AccessToken {
  // The recorded use (with its address) is more precise than the row's throttled time, which outlives its 90 days.
  const lastAt = Math.max(Number(row.last_used_at ?? 0), lastUse?.at ?? 0);
  return {
    ...(row.replaced_by ? { replaced: true } : {}),
    token_id: row.id,
    name: row.name,
    description: row.description,
    token_scopes: parseScopes(row.scopes),
    created_at: iso(row.created_at)!,
    expires_at: iso(row.expires_at),
    last_used_at: lastAt ? iso(lastAt) : null,
    last_use: lastUse ? { at: iso(lastUse.at)!, address: lastUse.address, client: lastUse.client } : null,
    expired: isExpired(row.expires_at, now),
  };
}

/** The columns a listed token is made of (never the digest). */
export const listColumns = [
  'id',
  'user_id',
  'name',
  'description',
  'scopes',
  'created_at',
  'expires_at',
  'last_used_at',
  'replaced_by',
] as const;

/** The fields the text rule names in its errors. */
const FIELDS = {
  name: { en_US: 'token name', zh_CN: '令牌名称' },
  description: { en_US: 'token description', zh_CN: '令牌描述' },
};

/** A requested expiry as epoch ms; anything but a valid instant after now answers AccessTokenExpiryInvalid. */
export function futureExpiry(ctx: AppContext, value: string): number {
  const expiresAt = Date.parse(value);
  if (!Number.isFinite(expiresAt) || expiresAt <= ctx.clock.now().getTime())
    throw new AppError(400, 'AccessTokenExpiryInvalid');
  return expiresAt;
}

/** Checks and normalises a create/edit request; throws the error the page shows. */
function validated(ctx: AppContext, input: TokenUpdateBody) {
  const trimmedName = input.name.trim();
  if (!trimmedName) throw new AppError(400, 'AccessTokenNameRequired');
  const name = cleanText(trimmedName, FIELDS.name);
  if (name.length > TOKEN_NAME_MAX) throw new AppError(400, 'InvalidParameter', { detail: 'name' });
  // The contract asks for 1 to 200 characters; spaces alone are no description either.
  const trimmedDescription = input.description?.trim();
  if (trimmedDescription === '') throw new AppError(400, 'AccessTokenDescriptionRequired');
  const description = trimmedDescription === undefined ? undefined : cleanText(trimmedDescription, FIELDS.description);
  if (description && description.length > TOKEN_DESCRIPTION_MAX)
    throw new AppError(400, 'InvalidParameter', { detail: 'description' });
  const expiresAt = futureExpiry(ctx, input.expires_at);
  const scopes = normalizeScopes(input.token_scopes);
  if (!scopes.ok) {
    const p = scopes.problem;
    if (p.code === 'empty') throw new AppError(400, 'AccessTokenScopeRequired');
    throw new AppError(400, p.code === 'readOnly' ? 'AccessTokenScopeReadOnly' : 'AccessTokenScopeUnknown', {
      scope: p.scope.slice(0, 100),
    });
  }
  return { name, description, expiresAt, scopes: scopes.scopes };
}

/**
 * What the lists show: every token, expired ones too (they stay until their owner deletes them, so each can be
 * re-created with its scopes: the list is the only place that remembers them), except a regenerated token's old row
 * once its secret has stopped (the new row stands for it; the housekeeping removes the old one).
 */
function listed(now: number) {
  return (eb: ExpressionBuilder<DB, 'personal_access_tokens'>) =>
    eb.or([eb('replaced_by', 'is', null), eb('expires_at', '>', now)]);
}

/** One page of the user's tokens, newest first; expired ones only when asked for. */
export async function searchTokens(
  ctx: AppContext,
  userId: string,
  opts: { includeExpired: boolean; currentPage: number; pageSize: number },
): Promise<TokenPage> {
  const now = ctx.clock.now().getTime();
  let q = ctx.db.selectFrom('personal_access_tokens').where('user_id', '=', userId).where(listed(now));
  if (!opts.includeExpired) q = q.where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));
  const { total } = await q.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow();
  const rows = await q
    .select(listColumns)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(opts.pageSize)
    .offset((opts.currentPage - 1) * opts.pageSize)
    .execute();
  const uses = await ctx.credentialUses.lastUses(
    'token',
    rows.map((r) => r.id),
  );
  return {
    access_tokens: rows.map((r) => toTokenView(r, now, uses.get(r.id))),
    pages: { current_page: opts.currentPage, page_size: opts.pageSize, total_size: Number(total) },
  };
}

/** Every token of the user (expired included), newest first: the legacy screen's list. */
export async function allTokens(ctx: AppContext, userId: string): Promise<AccessToken[]> {
  const now = ctx.clock.now().getTime();
  const rows = await ctx.db
    .selectFrom('personal_access_tokens')
    .select(listColumns)
    .where('user_id', '=', userId)
    .where(listed(now))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(MAX_TOKENS_PER_USER)
    .execute();
  const uses = await ctx.credentialUses.lastUses(
    'token',
    rows.map((r) => r.id),
  );
  return rows.map((r) => toTokenView(r, now, uses.get(r.id)));
}

/** Refuses one more token (409 AccessTokenLimitReached) when the user holds the most allowed, expired ones too. */
export async function withinTokenCap(ctx: AppContext, userId: string): Promise<void> {
  const { count } = await ctx.db
    .selectFrom('personal_access_tokens')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  if (Number(count) >= MAX_TOKENS_PER_USER)
    throw new AppError(409, 'AccessTokenLimitReached', { max: MAX_TOKENS_PER_USER });
}

/** Creates a token for the signed-in user; the answer carries the secret, shown once. */
export async function createToken(ctx: AppContext, userId: string, input: TokenBody): Promise<AccessToken> {
  const v = validated(ctx, input);
  await withinTokenCap(ctx, userId);
  const { token, record } = await issueToken(ctx.db, ctx.clock, {
    userId,
    name: v.name,
    // Always there on create: the contract requires it.
    description: v.description ?? '',
    scopes: v.scopes,
    expiresAt: new Date(v.expiresAt),
  });
  await ctx.events.emit({ type: 'token.created', name: record.name, expiresAt: record.expiresAt, to: { userId } });
  return issuedView(record, token, ctx.clock.now().getTime());
}

/** A token just issued as the answer shows it, with its secret: the one-time display. */
export function issuedView(record: TokenRecord, token: string, now: number): AccessToken {
  const view = toTokenView(
    {
      id: record.id,
      user_id: record.userId,
      name: record.name,
      description: record.description,
      scopes: JSON.stringify(record.scopes),
      created_at: record.createdAt,
      expires_at: record.expiresAt,
      last_used_at: null,
    },
    now,
  );
  return { ...view, token };
}

/**
 * One of the user's tokens by id, read before a change: `live` to edit or regenerate (an expired one answers 409
 * AccessTokenExpired), `expired` to re-create (a live one, 409 AccessTokenNotExpired). Another user's, or a regenerated
 * token's old row whose grace is over, answers 404 exactly like a missing one; the old row during its grace, 409
 * AccessTokenReplaced (the new row is the one to change).
 */
export async function ownToken(
  ctx: AppContext,
  userId: string,
  tokenId: string,
  now: number,
  state: 'live' | 'expired',
) {
  const row = await ctx.db
    .selectFrom('personal_access_tokens')
    .select(listColumns)
    .where('id', '=', tokenId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row || (row.replaced_by && isExpired(row.expires_at, now))) throw new AppError(404, 'AccessTokenNotFound');
  if (row.replaced_by) throw new AppError(409, 'AccessTokenReplaced');
  const expired = isExpired(row.expires_at, now);
  if (state === 'live' && expired) throw new AppError(409, 'AccessTokenExpired');
  if (state === 'expired' && !expired) throw new AppError(409, 'AccessTokenNotExpired');
  return row;
}

/**
 * Edits name, scopes, expiry (and description when sent) of one of the user's own tokens.
 * Another user's token answers 404 exactly like a missing one; an expired token cannot be edited.
 */
export async function updateToken(
  ctx: AppContext,
  userId: string,
  tokenId: string,
  input: TokenUpdateBody,
): Promise<AccessToken> {
  const now = ctx.clock.now().getTime();
  const row = await ownToken(ctx, userId, tokenId, now, 'live');
  const v = validated(ctx, input);
  const description = v.description ?? row.description;
  await ctx.db
    .updateTable('personal_access_tokens')
    .set({ name: v.name, description, scopes: JSON.stringify(v.scopes), expires_at: v.expiresAt })
    .where('id', '=', tokenId)
    .where('user_id', '=', userId)
    .execute();
  return toTokenView(
    { ...row, name: v.name, description, scopes: JSON.stringify(v.scopes), expires_at: v.expiresAt },
    now,
  );
}

/** Deletes one of the user's own tokens (expired ones too); another user's answers 404. */
export async function removeToken(ctx: AppContext, userId: string, tokenId: string): Promise<void> {
  const token = await ctx.db
    .selectFrom('personal_access_tokens')
    .select('name')
    .where('id', '=', tokenId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!token || !(await deleteToken(ctx.db, userId, tokenId))) throw new AppError(404, 'AccessTokenNotFound');
  await ctx.credentialUses.forget('token', [tokenId]);
  await ctx.events.emit({ type: 'token.deleted', name: token.name, to: { userId } });
}

/** "This wasn't me": deletes every token of the account, so none an intruder made or copied works any more. */
export async function revokeAllTokens(ctx: AppContext, userId: string): Promise<RevokedCredentials> {
  const ids = await ctx.db.selectFrom('personal_access_tokens').select('id').where('user_id', '=', userId).execute();
  const r = await ctx.db.deleteFrom('personal_access_tokens').where('user_id', '=', userId).executeTakeFirst();
  await ctx.credentialUses.forget(
    'token',
    ids.map((t) => t.id),
  );
  return { credential: 'token', count: Number(r.numDeletedRows) };
}

/** Days before a token expires when its owner is told (and once more when it has expired). */
export const TOKEN_NOTICE_DAYS = [7, 1] as const;

/** Scheduled job: expiry notices of tokens within the window (see `emitDueExpiries`). */
export function tokenExpiryNotices(ctx: AppContext): Promise<void> {
  return emitDueExpiries(ctx, 'token', TOKEN_NOTICE_DAYS, async ({ from, to }) =>
    (
      await ctx.db
        .selectFrom('personal_access_tokens')
        .select(['id', 'user_id', 'name', 'expires_at'])
        .where('expires_at', '>', from)
        .where('expires_at', '<=', to)
        // A regenerated token's old row ends with its grace: the new one is the token the member hears about.
        .where('replaced_by', 'is', null)
        .execute()
    ).map((r) => ({ id: r.id, userId: r.user_id, name: r.name, expiresAt: Number(r.expires_at) })),
  );
}
