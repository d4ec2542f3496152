import { Alert, Button } from 'antd';
import { FormattedMessage, useIntl } from 'react-intl';

/** Props of a section's load failure. */
export interface LoadFailedProps {
  /** The message id saying what failed to load. */
  titleId: string;
  /** Asks again. */
  onRetry: () => void;
}

/** A section's list could not be loaded: says so, and offers to ask again. */
export function LoadFailed({ titleId, onRetry }: LoadFailedProps) {
  const intl = useIntl();
  return (
    <Alert
      type="error"
      showIcon
      role="alert"
      title={intl.formatMessage({ id: titleId })}
      action={
        <Button size="small" onClick={onRetry}>
          <FormattedMessage id="security.retry" />
        </Button>
      }
    />
  );
}
