import { Alert } from 'antd';
import { observer } from 'mobx-react-lite';
import { FormattedMessage } from 'react-intl';
import { LocalTime } from '../../../src/core/ui/LocalTime';
import type { AccessTokensStore } from '../store';

/**
 * Beside the one-time display after a regeneration or a re-creation: until when the old secret works (or that it no
 * longer does), and the grants left out because the catalogue no longer offers them. Gone with the display.
 */
export const TokenRenewalNote = observer(function TokenRenewalNote({ store }: { store: AccessTokensStore }) {
  const renewal = store.lastRenewal;
  if (!renewal || !store.visibleToken) return null;
  const stillWorks = Date.parse(renewal.previous_stops_at) > Date.now();
  return (
    <Alert
      type={renewal.dropped_scopes.length ? 'warning' : 'info'}
      showIcon
      role="status"
      style={{ marginBottom: 16 }}
      data-testid="token-renewal-note"
      title={
        stillWorks ? (
          <FormattedMessage
            id="access-tokens.renewed.oldWorksUntil"
            values={{ time: <LocalTime key="time" value={renewal.previous_stops_at} /> }}
          />
        ) : (
          <FormattedMessage id="access-tokens.renewed.oldStopped" />
        )
      }
      description={
        renewal.dropped_scopes.length ? (
          <FormattedMessage
            id="access-tokens.renewed.dropped"
            values={{ scopes: renewal.dropped_scopes.join(', '), count: renewal.dropped_scopes.length }}
          />
        ) : undefined
      }
    />
  );
});
