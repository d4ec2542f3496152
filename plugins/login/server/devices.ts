import type { AppContext } from '../../../server/context';
import { sha256 } from '../../../server/auth/random';
import { describeBrowser } from '../../../server/auth/user-agent';

/** The login slice's table of seen addresses and browsers (migration `053-sign-in-devices`). */
export interface SignInDevicesTable {
  user_id: string;
  /** 'address' or 'browser'. */
  kind: string;
  /** SHA-256 of the address, or of the browser and system names: enough to recognise, nothing to read back. */
  value_hash: string;
  first_seen: number;
  last_seen: number;
  /** A mark's browser (migration `068-mark-browsers`): its name, major version and system; null on other rows. */
  browser_name: string | null;
  browser_version: string | null;
  browser_os: string | null;
}

declare module '../../../server/db/schema' {
  interface DB {
    sign_in_devices: SignInDevicesTable;
  }
}

/** An address or browser not used for this many days counts as new again. */
export const DEVICE_MEMORY_DAYS = 180;

/**
 * Remembers a successful sign-in's address and browser; emits `sign-in.new-device` when the account had signed
 * in before but never from this address or never with this browser (the first sign-in of an account is not news).
 */
export async function noteSignIn(
  ctx: AppContext,
  userId: string,
  address: string,
  userAgent: string | undefined,
): Promise<void> {
  const now = ctx.clock.now().getTime();
  const browser = describeBrowser(userAgent);
  const known = await ctx.db
    .selectFrom('sign_in_devices')
    .select('user_id')
    .where('user_id', '=', userId)
    .limit(1)
    .executeTakeFirst();
  let fresh = false;
  for (const [kind, value] of [
    ['address', address],
    ['browser', browser.identity],
  ] as const) {
    const hash = sha256(value);
    // RETURNING answers a row only when this statement inserted it: exact even for parallel sign-ins.
    const inserted = await ctx.db
      .insertInto('sign_in_devices')
      .values({ user_id: userId, kind, value_hash: hash, first_seen: now, last_seen: now })
      .onConflict((oc) => oc.columns(['user_id', 'kind', 'value_hash']).doNothing())
      .returning('first_seen')
      .executeTakeFirst();
    if (inserted) fresh = true;
    else
      await ctx.db
        .updateTable('sign_in_devices')
        .set({ last_seen: now })
        .where('user_id', '=', userId)
        .where('kind', '=', kind)
        .where('value_hash', '=', hash)
        .execute();
  }
  if (known && fresh) {
    await ctx.events.emit({ type: 'sign-in.new-device', address, browser: browser.info, to: { userId } });
  }
}

/** Housekeeping: forgets addresses and browsers unused for `DEVICE_MEMORY_DAYS`. */
export async function purgeDevices(ctx: AppContext): Promise<void> {
  const before = ctx.clock.now().getTime() - DEVICE_MEMORY_DAYS * 24 * 60 * 60 * 1000;
  await ctx.db.deleteFrom('sign_in_devices').where('last_seen', '<', before).execute();
}
