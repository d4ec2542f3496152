import { Result } from 'antd';
import { FormattedMessage } from 'react-intl';

/** Props of the placeholder shown by a section whose feature has not landed yet. */
export interface SectionPlaceholderProps {
  /** Message id of the section's title. */
  titleId: string;
}

/** An honest "not yet available" page naming the section; never shows invented data. */
export function SectionPlaceholder({ titleId }: SectionPlaceholderProps) {
  return (
    <Result
      status="info"
      title={<FormattedMessage id={titleId} />}
      subTitle={<FormattedMessage id="core.placeholder.notYetAvailable" />}
    />
  );
}
