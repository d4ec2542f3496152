import { Button, Checkbox, Popconfirm, Tag, Tooltip } from 'antd';
import { useState, type CSSProperties } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router-dom';
import type { Locale } from '../../../src/core/edition';
import { RelativeTime } from '../../../src/core/ui/RelativeTime';
import { isSameOriginPath } from '../../../src/core/url';
import type { InboxMessage } from '../contract';
import type { InboxApp } from '../limits';
import { messageFullTime, messageTime } from './time';

/** Each application's name in the page's catalogue (the filter, the line under a title, confirmations). */
export const APP_NAME_IDS: Readonly<Record<InboxApp, string>> = {
  account: 'notifications.app.account',
  packages: 'notifications.app.packages',
  organization: 'notifications.app.organization',
};

/** Hidden on screen, read by screen readers. */
export const VISUALLY_HIDDEN: CSSProperties = {
  position: 'absolute',
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  overflow: 'hidden',
  clip: 'rect(0, 0, 0, 0)',
  whiteSpace: 'nowrap',
  border: 0,
};

/** Paths this single-page app serves itself, followed without a reload. */
const APP_PATH = /^\/users(\/|$|\?|#)/;

/** Props of one message row. */
export interface MessageItemProps {
  /** The message as the service listed it. */
  message: InboxMessage;
  /** The page's ticking clock, for "3 minutes ago" (shown once the page is in the browser: `RelativeTime`). */
  now: number;
  /** The page's language, for relative and full times. */
  locale: Locale;
  /** The row's checkbox is ticked. */
  selected: boolean;
  /** A change is in flight: confirmations wait for it. */
  busy: boolean;
  /** Checkbox ticked or unticked. */
  onToggle: (on: boolean) => void;
  /** Opened (title pressed, body clicked, link followed): marks an unread message read. */
  onOpen: () => void;
  /** Delete confirmed. */
  onRemove: () => Promise<void>;
}

/**
 * One message: checkbox, title (a button that opens the whole body and marks it read), the sensitive-behaviour tag,
 * application and time, the body (two lines until opened), the link to act, mark read and delete. An unread
 * security message cannot be deleted: its delete control says why instead.
 */
export function MessageItem({ message: m, now, locale, selected, busy, onToggle, onOpen, onRemove }: MessageItemProps) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const [expanded, setExpanded] = useState(false);
  const bodyId = `inbox-body-${m.id}`;
  const open = () => {
    setExpanded((e) => !e);
    if (!m.read) onOpen();
  };
  const locked = m.sensitive && !m.read;
  const link = m.link && isSameOriginPath(m.link) ? m.link : null;
  const report = m.report_link && APP_PATH.test(m.report_link) ? m.report_link : null;
  const linkStyle: CSSProperties = { padding: '0 7px', lineHeight: '24px', textDecoration: 'underline' };
  const follow = () => {
    if (!m.read) onOpen();
  };
  const titleId = `inbox-title-${m.id}`;
  const markRead = () => {
    onOpen();
    // The button goes away once read: keep the keyboard on this message.
    document.getElementById(titleId)?.focus();
  };

  return (
    <li
      data-testid="inbox-message"
      data-message-id={m.id}
      data-read={m.read}
      style={{
        display: 'flex',
        gap: 12,
        alignItems: 'flex-start',
        padding: '12px 8px',
        borderBottom: '1px solid var(--ant-color-split)',
        minWidth: 0,
      }}
    >
      <Checkbox checked={selected} onChange={(e) => onToggle(e.target.checked)} style={{ marginTop: 2 }}>
        <span style={VISUALLY_HIDDEN}>{t('notifications.message.select', { title: m.title })}</span>
      </Checkbox>
      <div style={{ flex: 1, minWidth: 0 }}>
        <div style={{ display: 'flex', alignItems: 'center', gap: 8, flexWrap: 'wrap' }}>
          <span
            aria-hidden
            data-testid="inbox-unread-dot"
            style={{
              flex: 'none',
              width: 8,
              height: 8,
              borderRadius: 4,
              background: m.read ? 'transparent' : '#cf1322',
            }}
          />
          <button
            type="button"
            id={titleId}
            data-testid="inbox-message-title"
            aria-expanded={expanded}
            aria-controls={bodyId}
            onClick={open}
            style={{
              padding: 0,
              border: 0,
              background: 'none',
              font: 'inherit',
              fontSize: 15,
              fontWeight: m.read ? 400 : 600,
              color: 'var(--ant-color-text)',
              textAlign: 'left',
              cursor: 'pointer',
              minWidth: 0,
              overflowWrap: 'anywhere',
            }}
          >
            {!m.read && <span style={VISUALLY_HIDDEN}>{t('notifications.message.unread')} </span>}
            {m.title}
          </button>
          {m.sensitive && (
            <Tag
              data-testid="inbox-sensitive"
              // antd's orange text reads at 3.3:1 on its tint; a darker one meets WCAG AA.
              style={{
                marginInlineEnd: 0,
                color: 'light-dark(#ad4e00, #ffc069)',
                background: 'light-dark(#fff7e6, #2b1d11)',
                borderColor: 'light-dark(#ffd591, #594214)',
              }}
            >
              <FormattedMessage id="notifications.message.sensitive" />
            </Tag>
          )}
        </div>
        <div
          style={{ fontSize: 12, color: 'var(--ant-color-text-secondary)', marginTop: 2, paddingInlineStart: 16 }}
          data-testid="inbox-message-meta"
        >
          <FormattedMessage id={APP_NAME_IDS[m.app]} />
          {' · '}
          <RelativeTime
            value={m.created_at}
            now={now}
            format={(at) => messageTime(m.created_at, locale, (id) => t(id), at)}
            title={() => messageFullTime(m.created_at, locale)}
            data-testid="inbox-message-time"
          />
        </div>
        {/* Clicking the text opens it too (the title button is the keyboard's way). */}
        <div
          id={bodyId}
          onClick={open}
          data-testid="inbox-message-body"
          style={{
            marginTop: 4,
            paddingInlineStart: 16,
            color: 'var(--ant-color-text)',
            overflowWrap: 'anywhere',
            whiteSpace: 'pre-line',
            cursor: 'pointer',
            ...(expanded
              ? {}
              : { display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden' }),
          }}
        >
          {m.body}
        </div>
        <div style={{ display: 'flex', flexWrap: 'wrap', gap: 4, marginTop: 4, paddingInlineStart: 9 }}>
          {link &&
            (APP_PATH.test(link) ? (
              <Link to={link} onClick={follow} style={linkStyle} data-testid="inbox-message-link">
                <FormattedMessage id="notifications.message.view" />
              </Link>
            ) : (
              <a href={link} onClick={follow} style={linkStyle} data-testid="inbox-message-link">
                <FormattedMessage id="notifications.message.view" />
              </a>
            ))}
          {report && (
            <Link
              to={report}
              onClick={follow}
              style={{ ...linkStyle, color: 'var(--ant-color-error)' }}
              data-testid="inbox-message-not-me"
            >
              <FormattedMessage id="notifications.message.notMe" />
            </Link>
          )}
          {!m.read && (
            <Button type="link" size="small" onClick={markRead} data-testid="inbox-message-read">
              <FormattedMessage id="notifications.message.markRead" />
            </Button>
          )}
          {locked ? (
            // Focusable (aria-disabled, not disabled) so keyboard users reach the reason too.
            <>
              <Tooltip title={t('notifications.message.sensitiveUnread')} trigger={['hover', 'focus']}>
                <Button
                  type="link"
                  size="small"
                  aria-disabled="true"
                  aria-describedby={`inbox-locked-${m.id}`}
                  onClick={(e) => e.preventDefault()}
                  data-testid="inbox-message-delete"
                  style={{ color: 'var(--ant-color-text-disabled)', cursor: 'not-allowed' }}
                >
                  <FormattedMessage id="notifications.message.delete" />
                </Button>
              </Tooltip>
              <span id={`inbox-locked-${m.id}`} style={VISUALLY_HIDDEN}>
                {t('notifications.message.sensitiveUnread')}
              </span>
            </>
          ) : (
            <Popconfirm
              title={t('notifications.delete.confirm')}
              okText={t('notifications.message.delete')}
              cancelText={t('notifications.confirm.cancel')}
              okButtonProps={{ danger: true, loading: busy }}
              onConfirm={onRemove}
            >
              <Button type="link" size="small" danger data-testid="inbox-message-delete">
                <FormattedMessage id="notifications.message.delete" />
              </Button>
            </Popconfirm>
          )}
        </div>
      </div>
    </li>
  );
}
