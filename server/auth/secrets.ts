import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import type { Clock } from '../clock';
import { randomSecret, safeEqual } from './random';

/** Keys read per database handle: a key never changes once made, so each instance reads it once. */
const cache = new WeakMap<Kysely<DB>, Map<string, Promise<Buffer>>>();

async function loadOrCreate(db: Kysely<DB>, clock: Clock, name: string): Promise<Buffer> {
  const read = () => db.selectFrom('service_secrets').select('value').where('name', '=', name).executeTakeFirst();
  let row = await read();
  if (!row) {
    // Instances starting together may both try: the first insert wins and everyone reads the winner's key.
    await db
      .insertInto('service_secrets')
      .values({ name, value: randomSecret(32), created_at: clock.now().getTime() })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    row = await read();
  }
  if (!row) throw new Error(`service secret ${name} could not be stored`);
  return Buffer.from(row.value, 'base64url');
}

/**
 * The service's signing key named `name`: 32 random bytes made on first use and kept in the database, so every
 * instance on one database signs and verifies alike without any configuration.
 */
export function serviceSecret(db: Kysely<DB>, clock: Clock, name: string): Promise<Buffer> {
  const keys = cache.get(db) ?? new Map<string, Promise<Buffer>>();
  cache.set(db, keys);
  let key = keys.get(name);
  if (!key) {
    key = loadOrCreate(db, clock, name);
    // A failed read (database down) is not remembered: the next call tries again.
    key.catch(() => keys.delete(name));
    keys.set(name, key);
  }
  return key;
}

/** base64url HMAC-SHA256 of `data` under `key`. */
export function hmac(key: Buffer, data: string): string {
  return crypto.createHmac('sha256', key).update(data).digest('base64url');
}

/** Whether `signature` is `data`'s HMAC under `key` (constant-time). */
export function verifyHmac(key: Buffer, data: string, signature: string): boolean {
  return safeEqual(hmac(key, data), signature);
}
