import sshpk from 'sshpk';
import type { Kysely } from 'kysely';
import { emitDueExpiries } from '../../../server/services/scheduler';
import type { AppContext } from '../../../server/context';
import type { LastCredentialUse } from '../../../server/auth/credential-uses';
import type { DB } from '../../../server/db/schema';
import type { SshKeysTable } from './tables';
import { AppError } from '../../../server/errors';
import { cleanText } from '../../../server/clean-text';
import { newId } from '../../../server/auth/random';
import {
  SSH_KEY_MAX_LENGTH,
  SSH_RSA_MIN_BITS,
  type SshKey,
  type SshKeyCreateBody,
  type SshKeyScope,
  type SshKeyUpdateBody,
} from '../contract';

/** Declared type (first word) → the type sshpk finds inside the key blob. */
const ACCEPTED_TYPES: Record<string, string> = { 'ssh-rsa': 'rsa', 'ssh-ed25519': 'ed25519' };

/** A public key that passed every rule, ready to store. */
export interface ParsedSshKey {
  /** ssh-rsa or ssh-ed25519. */
  type: string;
  /** `type base64` plus the comment when there is one. */
  normalized: string;
  /** `SHA256:…` exactly as `ssh-keygen -lf` prints it. */
  fingerprint: string;
  /** Key size in bits (RSA modulus; 256 for ed25519). */
  bits: number;
}

/**
 * Checks a pasted public key against the rules and parses it with sshpk (no hand parsing of key
 * material): one line, ≤ 5000 characters, not a private key, declared type RSA or ed25519, the
 * blob's own type equal to the declared one, RSA ≥ 2048 bits. Throws AppError 400 on any failure.
 */
export function parseSshPublicKey(input: string): ParsedSshKey {
  if (input.length > SSH_KEY_MAX_LENGTH) throw new AppError(400, 'SshKeyTooLong');
  const text = input.trim();
  if (!text) throw new AppError(400, 'SshKeyInvalid');
  if (/PRIVATE KEY/.test(text) || isPrivateKey(text)) throw new AppError(400, 'SshKeyPrivate');
  if (/[\r\n]/.test(text)) throw new AppError(400, 'SshKeyMultiLine');
  const parts = text.split(/[ \t]+/);
  const [declared, blob] = parts;
  const comment = parts.slice(2).join(' ');
  if (!blob) throw new AppError(400, 'SshKeyInvalid');
  const expected = ACCEPTED_TYPES[declared];
  if (!expected) throw new AppError(400, 'SshKeyUnsupported');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(blob)) throw new AppError(400, 'SshKeyInvalid');
  let key: sshpk.Key;
  try {
    key = sshpk.parseKey(Buffer.from(blob, 'base64'), 'rfc4253');
  } catch {
    throw new AppError(400, 'SshKeyInvalid');
  }
  if (key.type !== expected) throw new AppError(400, 'SshKeyTypeMismatch');
  if (key.type === 'rsa' && key.size < SSH_RSA_MIN_BITS) throw new AppError(400, 'SshKeyRsaTooShort');
  // The blob re-encoded by sshpk must be what was pasted: no trailing garbage hidden in the base64.
  const canonical = key.toString('ssh').split(' ')[1];
  if (canonical !== blob.replace(/=+$/, '') && canonical !== blob) throw new AppError(400, 'SshKeyInvalid');
  return {
    type: declared,
    normalized: comment ? `${declared} ${canonical} ${comment}` : `${declared} ${canonical}`,
    fingerprint: key.fingerprint('sha256').toString(),
    bits: key.size,
  };
}

function isPrivateKey(text: string): boolean {
  try {
    sshpk.parsePrivateKey(text, 'auto');
    return true;
  } catch {
    return false;
  }
}

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

/**
 * Shapes a row for the client, with the expired flag computed on the injected clock and its last recorded use (git
 * over SSH). `last_used_at` is the later of that use and the time kept on the key, which outlives the 90 days uses
 * are kept.
 */
export function toView(row: SshKeysTable, now: number, lastUse: LastCredentialUse | null = null): SshKey {
  const lastAt = Math.max(Number(row.last_used_at ?? 0), lastUse?.at ?? 0);
  return {
    id: row.id,
    name: row.name,
    key: row.public_key,
    key_type: row.key_type,
    fingerprint: row.fingerprint,
    scope: row.scope as SshKeyScope,
    expires_at: iso(row.expires_at),
    last_used_at: lastAt ? iso(lastAt) : null,
    last_use: lastUse && { at: new Date(lastUse.at).toISOString(), address: lastUse.address, client: lastUse.client },
    created_at: new Date(row.created_at).toISOString(),
    expired: row.expires_at !== null && now >= row.expires_at,
  };
}

function parseExpiry(ctx: AppContext, value: string | null | undefined): number | null {
  if (value === null || value === undefined || value === '') return null;
  const t = Date.parse(value);
  if (Number.isNaN(t)) throw new AppError(400, 'InvalidParameter', { detail: 'expires_at' });
  if (t <= ctx.clock.now().getTime()) throw new AppError(400, 'SshKeyExpiryPast');
  return t;
}

/** The user's keys, newest first. */
export async function listKeys(ctx: AppContext, userId: string): Promise<SshKey[]> {
  const rows = await ctx.db
    .selectFrom('ssh_keys')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
  const now = ctx.clock.now().getTime();
  const last = await ctx.credentialUses.lastUses(
    'ssh-key',
    rows.map((r) => r.id),
  );
  return rows.map((r) => toView(r, now, last.get(r.id) ?? null));
}

async function ownedKey(db: Kysely<DB>, userId: string, id: string): Promise<SshKeysTable> {
  const row = await db
    .selectFrom('ssh_keys')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  // Someone else's key and no key look the same, so ids cannot be probed.
  if (!row) throw new AppError(404, 'SshKeyNotFound');
  return row;
}

/** One of the user's keys; another user's key answers 404. */
export async function getKey(ctx: AppContext, userId: string, id: string): Promise<SshKey> {
  const row = await ownedKey(ctx.db, userId, id);
  const last = await ctx.credentialUses.lastUses('ssh-key', [id]);
  return toView(row, ctx.clock.now().getTime(), last.get(id) ?? null);
}

/** A key's name as stored: trimmed, not empty, and clean (schemas/clean-text.ts). */
function keyName(value: string): string {
  const name = value.trim();
  if (!name) throw new AppError(400, 'InvalidParameter', { detail: 'name' });
  return cleanText(name, { en_US: 'SSH key name', zh_CN: 'SSH 公钥名称' });
}

/** Adds a key after every rule; the same key (by fingerprint) added by anyone before gives 409. */
export async function addKey(
  ctx: AppContext,
  userId: string,
  input: SshKeyCreateBody & { scope: SshKeyScope },
): Promise<SshKey> {
  const name = keyName(input.name);
  const parsed = parseSshPublicKey(input.key);
  const expiresAt = parseExpiry(ctx, input.expires_at);
  const existing = await ctx.db
    .selectFrom('ssh_keys')
    .select('id')
    .where('fingerprint', '=', parsed.fingerprint)
    .executeTakeFirst();
  if (existing) throw new AppError(409, 'SshKeyDuplicate');
  const row: SshKeysTable = {
    id: newId(),
    user_id: userId,
    name,
    key_type: parsed.type,
    public_key: parsed.normalized,
    fingerprint: parsed.fingerprint,
    scope: input.scope,
    expires_at: expiresAt,
    last_used_at: null,
    created_at: ctx.clock.now().getTime(),
  };
  try {
    await ctx.db.insertInto('ssh_keys').values(row).execute();
  } catch (e) {
    // Two simultaneous adds of one key: the unique index decides, the loser gets the same 409.
    if (/unique|duplicate/i.test(String((e as Error).message))) throw new AppError(409, 'SshKeyDuplicate');
    throw e;
  }
  await ctx.events.emit({ type: 'ssh-key.added', name, fingerprint: parsed.fingerprint, to: { userId } });
  return toView(row, ctx.clock.now().getTime());
}

/** Edits one of the user's keys; another user's key answers 404 and nothing changes. */
export async function updateKey(ctx: AppContext, userId: string, id: string, input: SshKeyUpdateBody): Promise<SshKey> {
  const row = await ownedKey(ctx.db, userId, id);
  const patch: Partial<SshKeysTable> = {};
  if (input.name !== undefined) {
    patch.name = keyName(input.name);
  }
  if (input.scope !== undefined) patch.scope = input.scope;
  if (input.expires_at !== undefined) patch.expires_at = parseExpiry(ctx, input.expires_at);
  if (Object.keys(patch).length) {
    await ctx.db.updateTable('ssh_keys').set(patch).where('id', '=', id).where('user_id', '=', userId).execute();
  }
  const last = await ctx.credentialUses.lastUses('ssh-key', [id]);
  return toView({ ...row, ...patch }, ctx.clock.now().getTime(), last.get(id) ?? null);
}

/** Deletes one of the user's keys; another user's key answers 404 and nothing changes. */
export async function deleteKey(ctx: AppContext, userId: string, id: string): Promise<void> {
  const key = await ownedKey(ctx.db, userId, id);
  const r = await ctx.db.deleteFrom('ssh_keys').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  // Two deletions at once: the one that deleted it tells.
  if (Number(r.numDeletedRows) > 0) {
    await ctx.credentialUses.forget('ssh-key', [id]);
    await ctx.events.emit({ type: 'ssh-key.deleted', name: key.name, to: { userId } });
  }
}

/** Days before a key expires when its owner is told (and once more when it has expired). */
export const SSH_KEY_NOTICE_DAYS = [7, 1] as const;

/** Scheduled job: expiry notices of SSH keys within the window (see `emitDueExpiries`). */
export function sshKeyExpiryNotices(ctx: AppContext): Promise<void> {
  return emitDueExpiries(ctx, 'ssh-key', SSH_KEY_NOTICE_DAYS, async ({ from, to }) =>
    (
      await ctx.db
        .selectFrom('ssh_keys')
        .select(['id', 'user_id', 'name', 'expires_at'])
        .where('expires_at', '>', from)
        .where('expires_at', '<=', to)
        .execute()
    ).map((r) => ({ id: r.id, userId: r.user_id, name: r.name, expiresAt: Number(r.expires_at) })),
  );
}
