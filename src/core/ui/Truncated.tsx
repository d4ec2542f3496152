import { Typography } from 'antd';
import { useState, type CSSProperties } from 'react';

/** Props of a one-line text that may be cut. */
export interface TruncatedProps {
  /** The whole text: shown cut to one line, and whole in the tooltip. */
  text: string;
  /** Widest the text gets before it is cut (e.g. 320 or '100%'). */
  maxWidth: CSSProperties['maxWidth'];
  /** Bold, as a row's name. */
  strong?: boolean;
  /** Muted and small, as a row's description. */
  secondary?: boolean;
  'data-testid'?: string;
}

/**
 * One line of text cut with an ellipsis when it does not fit (antd's Typography ellipsis). A cut text shows whole in
 * a tooltip on hover and on focus, and only then takes a place in the tab order; screen readers read it whole anyway.
 */
export function Truncated({ text, maxWidth, strong, secondary, 'data-testid': testId }: TruncatedProps) {
  const [cut, setCut] = useState(false);
  return (
    <Typography.Text
      strong={strong}
      data-testid={testId}
      tabIndex={cut ? 0 : undefined}
      ellipsis={{ tooltip: { title: text, trigger: ['hover', 'focus'] }, onEllipsis: setCut }}
      style={{
        maxWidth,
        ...(secondary ? { fontSize: 12, color: 'rgba(0, 0, 0, 0.65)' } : {}),
      }}
    >
      {text}
    </Typography.Text>
  );
}
