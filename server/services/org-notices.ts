import type { AppContext } from '../context';
import { dueExpiry, expiryScanWindow } from './scheduler';

/** Days before a licence expires when its organisation's admins hear of it. */
export const LICENCE_NOTICE_DAYS = [30, 7, 1] as const;

/**
 * Scheduled job: tells each organisation's admins that its licence is about to expire (30, 7 and 1 days before;
 * only the latest stage reached after downtime). Keyed per organisation, stage and expiry, so a renewed licence
 * that nears its new end is told again, and every instance finding the same stage makes one message.
 */
export async function licenceExpiryNotices(ctx: AppContext): Promise<void> {
  if (!ctx.events.hasReceivers) return;
  const now = ctx.clock.now().getTime();
  const { to } = expiryScanWindow(now, LICENCE_NOTICE_DAYS);
  const rows = await ctx.db
    .selectFrom('organizations')
    .select(['id', 'name', 'licence_expires_at'])
    .where('licence_expires_at', 'is not', null)
    .where('licence_expires_at', '>', now)
    .where('licence_expires_at', '<=', to)
    .execute();
  for (const org of rows) {
    const expiresAt = Number(org.licence_expires_at);
    const due = dueExpiry(expiresAt, now, LICENCE_NOTICE_DAYS);
    if (due?.stage !== 'expiring') continue;
    await ctx.events.emit({
      type: 'org.licence-expiring',
      org: org.name,
      expiresAt,
      days: due.days,
      to: { orgId: org.id, role: 'admin' },
      key: `licence:${org.id}:${due.days}:${expiresAt}`,
    });
  }
}
