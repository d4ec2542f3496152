import { BellOutlined } from '@ant-design/icons';
import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { useIntl } from 'react-intl';
import { Link, useLocation } from 'react-router-dom';
import { useStore } from '../../../src/core/stores/root';

/** Where the bell leads. */
export const INBOX_PATH = '/users/notifications';

/** Above this the badge shows `99+` (the label still says the exact number). */
const BADGE_MAX = 99;

/**
 * The top bar's bell: a link to the message center with the unread count on a badge, refreshed on arrival, on
 * every navigation, after any call whose answer says it wrote a message (whichever section made it), on returning
 * to the tab and every minute while the tab is visible; the page's changes show at once.
 */
const InboxBell = observer(function InboxBell() {
  const counts = useStore('inboxCounts');
  const intl = useIntl();
  const { pathname } = useLocation();
  const unread = counts.unreadOf();

  useEffect(() => counts.watch(), [counts]);
  useEffect(() => {
    // The message center loads the counts with its list; elsewhere a navigation may follow a new message.
    if (pathname !== INBOX_PATH) void counts.arrive();
  }, [counts, pathname]);

  const here = pathname === INBOX_PATH;
  return (
    <Link
      to={INBOX_PATH}
      data-testid="inbox-bell"
      aria-label={intl.formatMessage({ id: 'notifications.bell.label' }, { count: unread })}
      aria-current={here ? 'page' : undefined}
      style={{
        display: 'inline-flex',
        alignItems: 'center',
        justifyContent: 'center',
        minWidth: 32,
        height: 32,
        padding: '0 6px',
        borderRadius: 6,
        color: 'var(--ant-color-text)',
        background: here ? 'var(--ant-color-fill-secondary)' : undefined,
      }}
    >
      {/* A plain badge, not antd's: its fade-out never ends for a custom count and would leave the old number up. */}
      <span style={{ position: 'relative', display: 'inline-flex' }}>
        <BellOutlined aria-hidden style={{ fontSize: 16 }} />
        {unread > 0 && (
          <span
            data-testid="inbox-bell-count"
            aria-hidden
            style={{
              position: 'absolute',
              top: -7,
              insetInlineStart: 9,
              minWidth: 16,
              height: 16,
              padding: '0 4px',
              borderRadius: 8,
              background: '#cf1322',
              color: '#fff',
              fontSize: 11,
              lineHeight: '16px',
              textAlign: 'center',
              whiteSpace: 'nowrap',
              boxShadow: '0 0 0 1px var(--ant-color-bg-container)',
            }}
          >
            {unread > BADGE_MAX ? `${BADGE_MAX}+` : unread}
          </span>
        )}
      </span>
    </Link>
  );
});

export default InboxBell;
