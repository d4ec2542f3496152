import { Button, Checkbox, Popconfirm } from 'antd';
import { FormattedMessage, useIntl } from 'react-intl';

/** The select-all checkbox, where the focus goes when the button it was on disappears. */
const SELECT_ALL_ID = 'inbox-select-all';

/** Props of the batch toolbar. */
export interface BatchBarProps {
  /** Messages listed (loaded). */
  total: number;
  /** Messages selected. */
  selected: number;
  /** Every listed message is selected. */
  allSelected: boolean;
  /** A change is in flight: the buttons wait for it. */
  busy: boolean;
  /** Some message is unread (in the filtered application). */
  canMarkAllRead: boolean;
  /** Some message is read (in the filtered application). */
  canDeleteRead: boolean;
  /** The filtered application's name, for the "delete all read" confirmation; null without a filter. */
  appName: string | null;
  /** Select-all ticked or unticked. */
  onSelectAll: (on: boolean) => void;
  /** "Mark selected as read" pressed. */
  onMarkSelectedRead: () => Promise<void>;
  /** Deleting the selection confirmed. */
  onDeleteSelected: () => Promise<void>;
  /** "Mark all as read" pressed. */
  onMarkAllRead: () => Promise<void>;
  /** Deleting all read messages confirmed. */
  onDeleteRead: () => Promise<void>;
}

/**
 * Select all, then mark the selection read or delete it (after a confirmation); mark all read; delete all read
 * (after a confirmation). Wraps on a narrow window.
 */
export function BatchBar(p: BatchBarProps) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const none = p.selected === 0;
  // A button that the action disables (nothing left to do) drops the keyboard focus: keep it in the toolbar.
  const run = (action: () => Promise<void>) => async () => {
    await action();
    requestAnimationFrame(() => {
      if (!document.activeElement || document.activeElement === document.body)
        document.getElementById(SELECT_ALL_ID)?.focus();
    });
  };
  return (
    <div
      role="toolbar"
      aria-label={t('notifications.batch.toolbar')}
      data-testid="inbox-toolbar"
      style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 8, marginBottom: 8 }}
    >
      <Checkbox
        checked={p.allSelected}
        indeterminate={!p.allSelected && p.selected > 0}
        disabled={p.total === 0}
        onChange={(e) => p.onSelectAll(e.target.checked)}
        id={SELECT_ALL_ID}
        data-testid="inbox-select-all"
      >
        <FormattedMessage id="notifications.batch.selectAll" />
      </Checkbox>
      {p.selected > 0 && (
        <span role="status" data-testid="inbox-selected-count" style={{ color: 'rgba(0, 0, 0, 0.65)' }}>
          <FormattedMessage id="notifications.batch.selected" values={{ count: p.selected }} />
        </span>
      )}
      <Button size="small" disabled={none} onClick={run(p.onMarkSelectedRead)} data-testid="inbox-read-selected">
        <FormattedMessage id="notifications.batch.markRead" />
      </Button>
      <Popconfirm
        title={t('notifications.batch.deleteConfirm', { count: p.selected })}
        okText={t('notifications.message.delete')}
        cancelText={t('notifications.confirm.cancel')}
        okButtonProps={{ danger: true, loading: p.busy }}
        onConfirm={run(p.onDeleteSelected)}
        disabled={none}
      >
        <Button size="small" danger disabled={none} data-testid="inbox-delete-selected">
          <FormattedMessage id="notifications.batch.delete" />
        </Button>
      </Popconfirm>
      <span style={{ flex: '1 1 0', minWidth: 0 }} />
      <Button size="small" disabled={!p.canMarkAllRead} onClick={run(p.onMarkAllRead)} data-testid="inbox-read-all">
        <FormattedMessage id="notifications.batch.markAllRead" />
      </Button>
      <Popconfirm
        title={
          p.appName
            ? t('notifications.batch.deleteReadConfirmApp', { app: p.appName })
            : t('notifications.batch.deleteReadConfirm')
        }
        okText={t('notifications.message.delete')}
        cancelText={t('notifications.confirm.cancel')}
        okButtonProps={{ danger: true, loading: p.busy }}
        onConfirm={run(p.onDeleteRead)}
        disabled={!p.canDeleteRead}
      >
        <Button size="small" danger disabled={!p.canDeleteRead} data-testid="inbox-delete-read">
          <FormattedMessage id="notifications.batch.deleteRead" />
        </Button>
      </Popconfirm>
    </div>
  );
}
