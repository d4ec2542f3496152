import { Result } from 'antd';
import { FormattedMessage } from 'react-intl';

/** A top-level page whose feature has not landed yet: names the page, shows no data. */
export function PagePlaceholder({ titleId }: { titleId: string }) {
  return (
    <Result
      status="info"
      title={<FormattedMessage id={titleId} />}
      subTitle={<FormattedMessage id="core.placeholder.notYetAvailable" />}
    />
  );
}
