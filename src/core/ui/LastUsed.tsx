import { FormattedMessage, useIntl } from 'react-intl';
import type { LastUse } from '../../../schemas/credential-uses';
import { formatFullDateTime, formatRelativeTime } from '../i18n/format';
import { normalizeLocale } from '../i18n/locale';
import { RelativeTime } from './RelativeTime';
import { useNow } from './useNow';

/** Props of a credential's "last used" line. */
export interface LastUsedProps {
  /** The last recorded use (90 days kept), with its address. */
  lastUse: LastUse | null;
  /** The credential's own last-use time, which outlives the recorded uses (shown alone when they are gone). */
  lastUsedAt?: string | null;
  'data-testid'?: string;
}

/** How often "3 minutes ago" moves on while a list is open. */
const TICK_MS = 30_000;
const browserClock = () => Date.now();

/**
 * "3 minutes ago · 203.0.113.5" (the full local time on hover), the time alone for a use older than the recorded ones,
 * or "Never used": what the token and SSH key lists show of a credential's last use.
 */
export function LastUsed({ lastUse, lastUsedAt, 'data-testid': testId }: LastUsedProps) {
  // The language the page's texts are in, so the "ago" reads as the words around it.
  const locale = normalizeLocale(useIntl().locale);
  const now = useNow(browserClock, TICK_MS);
  const at = lastUse?.at ?? lastUsedAt;
  if (!at)
    return (
      <span data-testid={testId}>
        <FormattedMessage id="core.lastUse.never" />
      </span>
    );
  const time = (
    <RelativeTime
      // A value of a message: react-intl puts it in a list of children, which wants keys.
      key="time"
      value={at}
      now={now}
      // A time a little ahead of the browser's clock (clocks differ) is just now.
      format={(n) => formatRelativeTime(at, locale, Math.max(n, Date.parse(at)))}
      title={() => formatFullDateTime(at, locale)}
    />
  );
  return (
    <span data-testid={testId}>
      {lastUse ? <FormattedMessage id="core.lastUse.at" values={{ time, address: lastUse.address }} /> : time}
    </span>
  );
}
