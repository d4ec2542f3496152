import type { ExpressionBuilder, Transaction } from 'kysely';
import type { AppContext } from '../../../server/context';
import type { DB } from '../../../server/db/schema';
import { AppError } from '../../../server/errors';
import { normalizeScopes } from '../../../server/auth/token-scopes';
import { type TokenRecreateBody, type TokenRegenerateBody, type TokenRenewalAnswer } from '../contract';
import { futureExpiry, issuedView, ownToken, parseScopes, withinTokenCap } from './service';
import { issueToken } from './tokens';

// Rotation and renewal of personal access tokens (issue 42): a regenerated or re-created token is a new row with a
// new id and secret (each secret has its own usage record and "last used"; the open API's check is unchanged). On
// regeneration the old row lives on through the grace the member picked (`replaced_by` names the new row; its
// `expires_at` is the grace's end), or is deleted at once; a re-created token's expired row is deleted.

const MINUTE = 60_000;

/**
 * The grants of a stored token the catalogue still offers, and the ones it no longer does: an unknown grant is dropped,
 * a write grant on a resource now read-only keeps its read part (the write grant is named as dropped).
 */
export function keptScopes(stored: readonly string[]): { scopes: string[]; dropped: string[] } {
  const kept: string[] = [];
  const dropped: string[] = [];
  for (const grant of stored) {
    const one = normalizeScopes([grant]);
    if (one.ok) {
      kept.push(...one.scopes);
      continue;
    }
    dropped.push(grant);
    if (one.problem.code === 'readOnly') kept.push(grant.replace(/:write$/, ':read'));
  }
  const all = normalizeScopes(kept);
  return { scopes: all.ok ? all.scopes : [], dropped };
}

/** A token row as read before a change. */
type OwnToken = Awaited<ReturnType<typeof ownToken>>;

/**
 * Issues the new token for `row` (its name, description and the scopes still offered, the asked expiry) and, in the
 * same transaction, retires the old row; when `retire` changes no row (a concurrent call got there first) nothing is
 * made and `lost` is thrown.
 */
async function renew(
  ctx: AppContext,
  row: OwnToken,
  input: { expires_at: string },
  retire: (trx: Transaction<DB>, newId: string) => Promise<bigint>,
  lost: AppError,
) {
  const now = ctx.clock.now().getTime();
  const expiresAt = futureExpiry(ctx, input.expires_at);
  const { scopes, dropped } = keptScopes(parseScopes(row.scopes));
  if (!scopes.length) throw new AppError(409, 'AccessTokenNoScopeLeft');
  const made = await ctx.db.transaction().execute(async (trx) => {
    const issued = await issueToken(trx, ctx.clock, {
      userId: row.user_id,
      name: row.name,
      description: row.description,
      scopes,
      expiresAt: new Date(expiresAt),
    });
    if (!Number(await retire(trx, issued.record.id))) throw lost;
    return issued;
  });
  return { expiresAt, dropped, view: issuedView(made.record, made.token, now) };
}

/**
 * Regenerates a live token: a new secret and expiry under the same name, description and scopes; the old secret stops
 * at once (`grace_minutes` 0: its row is deleted) or when the grace ends (never later than its own expiry).
 */
export async function regenerateToken(
  ctx: AppContext,
  userId: string,
  tokenId: string,
  input: TokenRegenerateBody,
): Promise<TokenRenewalAnswer> {
  const now = ctx.clock.now().getTime();
  const row = await ownToken(ctx, userId, tokenId, now, 'live');
  const stopsAt =
    input.grace_minutes > 0 ? Math.min(now + input.grace_minutes * MINUTE, row.expires_at ?? Infinity) : now;
  const graced = stopsAt > now;
  // The old secret keeps working a while: both count against the cap until then.
  if (graced) await withinTokenCap(ctx, userId);
  // Only a live token nobody replaced meanwhile (a second regeneration racing this one loses and changes nothing).
  const live = (eb: ExpressionBuilder<DB, 'personal_access_tokens'>) =>
    eb.and([
      eb('id', '=', row.id),
      eb('user_id', '=', userId),
      eb('replaced_by', 'is', null),
      eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]),
    ]);
  const done = await renew(
    ctx,
    row,
    input,
    async (trx, newId) =>
      graced
        ? (
            await trx
              .updateTable('personal_access_tokens')
              .set({ replaced_by: newId, expires_at: stopsAt })
              .where(live)
              .executeTakeFirst()
          ).numUpdatedRows
        : (await trx.deleteFrom('personal_access_tokens').where(live).executeTakeFirst()).numDeletedRows,
    new AppError(409, 'AccessTokenReplaced'),
  );
  if (!graced) await ctx.credentialUses.forget('token', [row.id]);
  await ctx.events.emit({
    type: 'token.regenerated',
    name: row.name,
    expiresAt: done.expiresAt,
    oldStopsAt: graced ? stopsAt : null,
    to: { userId },
  });
  return {
    access_token: done.view,
    previous_token_id: row.id,
    previous_stops_at: new Date(stopsAt).toISOString(),
    dropped_scopes: done.dropped,
  };
}

/**
 * Re-creates an expired token: a new secret and expiry under its name, description and the scopes the catalogue still
 * offers (the others are named in the answer); the expired row goes, so the list shows the new token in its place.
 */
export async function recreateToken(
  ctx: AppContext,
  userId: string,
  tokenId: string,
  input: TokenRecreateBody,
): Promise<TokenRenewalAnswer> {
  const now = ctx.clock.now().getTime();
  const row = await ownToken(ctx, userId, tokenId, now, 'expired');
  // An expired row has an expiry.
  const expiredAt = row.expires_at!;
  const done = await renew(
    ctx,
    row,
    input,
    async (trx) =>
      (
        await trx
          .deleteFrom('personal_access_tokens')
          .where('id', '=', row.id)
          .where('user_id', '=', userId)
          .where('replaced_by', 'is', null)
          .where('expires_at', '<=', now)
          .executeTakeFirst()
      ).numDeletedRows,
    // Re-created twice at once: the second finds the row gone and makes nothing.
    new AppError(404, 'AccessTokenNotFound'),
  );
  await ctx.credentialUses.forget('token', [row.id]);
  await ctx.events.emit({
    type: 'token.recreated',
    name: row.name,
    expiresAt: done.expiresAt,
    dropped: done.dropped,
    to: { userId },
  });
  return {
    access_token: done.view,
    previous_token_id: row.id,
    previous_stops_at: new Date(expiredAt).toISOString(),
    dropped_scopes: done.dropped,
  };
}

/** Housekeeping: old rows of regenerated tokens whose grace is over (their secret no longer works), and their uses. */
export async function purgeReplacedTokens(ctx: AppContext): Promise<void> {
  const now = ctx.clock.now().getTime();
  const gone = await ctx.db
    .deleteFrom('personal_access_tokens')
    .where('replaced_by', 'is not', null)
    .where('expires_at', '<=', now)
    .returning('id')
    .execute();
  await ctx.credentialUses.forget(
    'token',
    gone.map((r) => r.id),
  );
}
