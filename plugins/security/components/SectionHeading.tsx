import { Typography } from 'antd';
import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';

/** Props of a part's heading. */
export interface SectionHeadingProps {
  /** The heading's element id (the part's `aria-labelledby`, and where the keyboard goes when a row leaves). */
  id: string;
  /** Its text's message id. */
  titleId: string;
  /** What acts on the whole part, on the heading's line (wrapping under it on a narrow window). */
  action?: ReactNode;
}

/** A part of the security page: an h2 the page can focus, and the part's own action beside it. */
export function SectionHeading({ id, titleId, action }: SectionHeadingProps) {
  return (
    <div style={{ display: 'flex', alignItems: 'center', gap: 12, flexWrap: 'wrap', marginBottom: 8 }}>
      <Typography.Title id={id} tabIndex={-1} level={2} style={{ fontSize: 16, margin: 0, flex: '1 1 auto' }}>
        <FormattedMessage id={titleId} />
      </Typography.Title>
      {action}
    </div>
  );
}
