import { Tooltip, Typography } from 'antd';
import { useLayoutEffect, useRef, useState, type CSSProperties } from 'react';

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
 * One line of text cut with an ellipsis when it does not fit (antd's Typography CSS ellipsis: the whole text stays in
 * the page, so screen readers read it whole). A cut text shows whole in a tooltip on hover and on focus, and only
 * then takes a place in the tab order. Typography's own ellipsis tooltip measures on hover only, and its measured
 * mode labels a plain span (an axe finding), hence the tooltip here.
 */
export function Truncated({ text, maxWidth, strong, secondary, 'data-testid': testId }: TruncatedProps) {
  const ref = useRef<HTMLSpanElement>(null);
  const [cut, setCut] = useState(false);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const measure = () => setCut(el.scrollWidth > el.clientWidth);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [text]);
  return (
    <Tooltip title={cut ? text : undefined} trigger={['hover', 'focus']}>
      <Typography.Text
        ref={ref}
        strong={strong}
        ellipsis
        data-testid={testId}
        data-cut={cut}
        tabIndex={cut ? 0 : undefined}
        style={{ maxWidth, ...(secondary ? { fontSize: 12, color: 'var(--ant-color-text-secondary)' } : {}) }}
      >
        {text}
      </Typography.Text>
    </Tooltip>
  );
}
