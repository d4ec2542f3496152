import crypto from 'node:crypto';
import zlib from 'node:zlib';
import type { Kysely } from 'kysely';
import type { Clock } from '../../../server/clock';
import type { DB } from '../../../server/db/schema';
import type { SessionUser } from '../../../server/context';
import { sessionUserColumns } from '../../../server/auth/sessions';
import { newId, sha256 } from '../../../server/auth/random';
import { TOKEN_PREFIX, type TokenAuthenticator, type VerifyTokenResult } from '../../../server/auth/tokens';

// Token persistence: the secret's format, and issuing, verifying and deleting rows of
// `personal_access_tokens`. The core reaches verification only through `TokenAuthenticator`.

const BODY_LEN = 40;
const CHECKSUM_LEN = 6;
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** last_used_at is written at most this often per token. */
export const LAST_USED_THROTTLE_MS = 5 * 60 * 1000;

function base62(bytes: Buffer, len: number): string {
  let n = BigInt('0x' + (bytes.toString('hex') || '0'));
  let out = '';
  while (out.length < len) {
    out = ALPHABET[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out;
}

function checksum(body: string): string {
  const crc = zlib.crc32(body) >>> 0;
  const b = Buffer.alloc(4);
  b.writeUInt32BE(crc);
  return base62(b, CHECKSUM_LEN);
}

/** A fresh token string: prefix + 40 base62 chars (~238 bits) + a 6-char CRC32 checksum. */
export function generateToken(): string {
  const body = base62(crypto.randomBytes(32), BODY_LEN);
  return `${TOKEN_PREFIX}${body}${checksum(body)}`;
}

/** True when a string has the token shape and a correct checksum, so typos never reach the database. */
export function isWellFormedToken(token: string): boolean {
  if (token.length !== TOKEN_PREFIX.length + BODY_LEN + CHECKSUM_LEN || !token.startsWith(TOKEN_PREFIX)) return false;
  const rest = token.slice(TOKEN_PREFIX.length);
  if (!/^[0-9A-Za-z]+$/.test(rest)) return false;
  return checksum(rest.slice(0, BODY_LEN)) === rest.slice(BODY_LEN);
}

/** What a new token is for; `expiresAt` null means it never expires. */
export interface IssueTokenInput {
  userId: string;
  name: string;
  description?: string;
  scopes: string[];
  expiresAt: Date | null;
}

/** A token as stored (no secret), for lists and the management UI. */
export interface TokenRecord {
  id: string;
  userId: string;
  name: string;
  description: string;
  scopes: string[];
  createdAt: number;
  expiresAt: number | null;
  lastUsedAt: number | null;
}

/** Creates a token; the secret is returned once and only its SHA-256 digest is stored. */
export async function issueToken(
  db: Kysely<DB>,
  clock: Clock,
  input: IssueTokenInput,
): Promise<{ token: string; record: TokenRecord }> {
  const token = generateToken();
  const record: TokenRecord = {
    id: newId(),
    userId: input.userId,
    name: input.name,
    description: input.description ?? '',
    scopes: [...new Set(input.scopes)],
    createdAt: clock.now().getTime(),
    expiresAt: input.expiresAt ? input.expiresAt.getTime() : null,
    lastUsedAt: null,
  };
  await db
    .insertInto('personal_access_tokens')
    .values({
      id: record.id,
      user_id: record.userId,
      name: record.name,
      description: record.description,
      token_digest: sha256(token),
      scopes: JSON.stringify(record.scopes),
      created_at: record.createdAt,
      expires_at: record.expiresAt,
      last_used_at: null,
    })
    .execute();
  return { token, record };
}

/**
 * Checks a token: shape and checksum first (no DB), then digest lookup and expiry; keeps the row's last-use time
 * (throttled; the pipeline records the use with its address and outcome through ctx.credentialUses).
 */
export async function verifyToken(db: Kysely<DB>, clock: Clock, token: string): Promise<VerifyTokenResult> {
  if (!isWellFormedToken(token)) return { ok: false, reason: 'malformed' };
  const row = await db
    .selectFrom('personal_access_tokens')
    .innerJoin('users', 'users.id', 'personal_access_tokens.user_id')
    .select([
      'personal_access_tokens.id as token_id',
      'personal_access_tokens.name as token_name',
      'personal_access_tokens.scopes',
      'personal_access_tokens.expires_at',
      'personal_access_tokens.last_used_at',
      ...sessionUserColumns,
    ])
    .where('personal_access_tokens.token_digest', '=', sha256(token))
    .executeTakeFirst();
  if (!row) return { ok: false, reason: 'unknown' };
  const now = clock.now().getTime();
  if (row.expires_at != null && row.expires_at <= now)
    return { ok: false, reason: 'expired', tokenId: row.token_id, userId: row.id, name: row.token_name };
  if (row.last_used_at == null || now - row.last_used_at >= LAST_USED_THROTTLE_MS) {
    await db
      .updateTable('personal_access_tokens')
      .set({ last_used_at: now })
      .where('id', '=', row.token_id)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', now - LAST_USED_THROTTLE_MS)]))
      .execute();
  }
  const { token_id, token_name, scopes, expires_at: _e, last_used_at: _l, ...user } = row;
  let parsed: string[] = [];
  try {
    const v: unknown = JSON.parse(scopes);
    if (Array.isArray(v)) parsed = v.filter((s): s is string => typeof s === 'string');
  } catch {
    parsed = [];
  }
  return { ok: true, tokenId: token_id, scopes: parsed, user: user as SessionUser, name: token_name };
}

/** Deletes a token of a user (owner check included); true when one was removed. */
export async function deleteToken(db: Kysely<DB>, userId: string, tokenId: string): Promise<boolean> {
  const r = await db
    .deleteFrom('personal_access_tokens')
    .where('id', '=', tokenId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** The open API's token check, bound to the service's database and clock (provided to the core as `ctx.tokenAuth`). */
export function tokenAuthenticator(deps: { db: Kysely<DB>; clock: Clock }): TokenAuthenticator {
  return { verify: (token) => verifyToken(deps.db, deps.clock, token) };
}
