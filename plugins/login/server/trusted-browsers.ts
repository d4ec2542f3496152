import type { AppContext } from '../../../server/context';
import type { TrustedBrowserRecord, TrustedBrowsers } from '../../../server/auth/trusted-browsers';
import { sha256 } from '../../../server/auth/random';
import { MARK_KIND, MARK_TTL_MS, readMarks } from './device-mark';

/** The most trusted browsers one account lists (a browser keeps one mark per account: this is plenty). */
const LIST_MAX = 100;

/**
 * A mark's public id: one-way from its digest (itself one-way from the nonce the cookie carries), so the id names
 * the browser on the security page and gives nothing that makes or recognises a mark.
 */
export function trustedBrowserId(valueHash: string): string {
  return sha256(`trusted-browser/v1|${valueHash}`).slice(0, 32);
}

/**
 * The browsers the smart lockout trusts for an account, for the security page (`ctx.trustedBrowsers`): the rows of
 * `sign_in_devices` of kind `mark` that still count (`lockFor`'s rule: renewed within `MARK_TTL_MS`).
 */
export function trustedBrowsers(ctx: AppContext): TrustedBrowsers {
  const current = (userId: string) =>
    ctx.db
      .selectFrom('sign_in_devices')
      .select(['value_hash', 'first_seen', 'last_seen', 'browser_name', 'browser_version', 'browser_os'])
      .where('user_id', '=', userId)
      .where('kind', '=', MARK_KIND)
      .where('last_seen', '>', ctx.clock.now().getTime() - MARK_TTL_MS)
      .orderBy('last_seen', 'desc')
      .limit(LIST_MAX)
      .execute();
  return {
    async list(userId, req) {
      const [rows, marks] = await Promise.all([current(userId), readMarks(ctx, req)]);
      const own = new Set(marks.filter((m) => m.userId === userId).map((m) => sha256(m.nonce)));
      return rows.map((r): TrustedBrowserRecord => ({
        id: trustedBrowserId(r.value_hash),
        browser: { name: r.browser_name, version: r.browser_version, os: r.browser_os },
        firstUsedAt: r.first_seen,
        lastUsedAt: r.last_seen,
        current: own.has(r.value_hash),
      }));
    },
    async forget(userId, id) {
      // The account's own listed marks only: another account's id is found nowhere here, as an unknown one.
      const row = (await current(userId)).find((r) => trustedBrowserId(r.value_hash) === id);
      if (!row) return false;
      const r = await ctx.db
        .deleteFrom('sign_in_devices')
        .where('user_id', '=', userId)
        .where('kind', '=', MARK_KIND)
        .where('value_hash', '=', row.value_hash)
        .executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
  };
}
