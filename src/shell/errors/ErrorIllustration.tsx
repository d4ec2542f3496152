import { theme } from 'antd';

/** The error pages that show a drawing rather than an icon. */
export type IllustratedStatus = '404' | '403' | '500';

/** Whether an error page's status has a drawing (antd draws these three in its own fixed colours). */
export function isIllustrated(status: string): status is IllustratedStatus {
  return status === '404' || status === '403' || status === '500';
}

/**
 * The drawing of an error page in the theme's colours, so it takes each edition's brand colour (antd's own
 * drawings keep a fixed blue): a page in a browser window with the status on it and a sign of what went wrong
 * (a magnifier, a lock, a broken line). Decorative: the page's heading says it in words.
 */
export function ErrorIllustration({ status }: { status: IllustratedStatus }) {
  const { token } = theme.useToken();
  const brand = token.colorPrimary;
  const tint = token.colorPrimaryBg;
  const line = token.colorPrimaryBorder;
  const paper = token.colorBgContainer;
  return (
    <svg
      width="240"
      height="170"
      viewBox="0 0 240 170"
      aria-hidden="true"
      focusable="false"
      data-testid="error-illustration"
      data-status={status}
    >
      <ellipse cx="120" cy="150" rx="100" ry="12" fill={tint} />
      <circle cx="120" cy="78" r="70" fill={tint} />
      <rect x="48" y="26" width="144" height="104" rx="8" fill={paper} stroke={brand} strokeWidth="3" />
      <line x1="48" y1="46" x2="192" y2="46" stroke={brand} strokeWidth="3" />
      <circle cx="62" cy="36" r="3.5" fill={line} />
      <circle cx="74" cy="36" r="3.5" fill={line} />
      <circle cx="86" cy="36" r="3.5" fill={line} />
      <text
        x="120"
        y="96"
        textAnchor="middle"
        fontSize="38"
        fontWeight="700"
        fontFamily="system-ui, -apple-system, 'Segoe UI', sans-serif"
        fill={brand}
      >
        {status}
      </text>
      <line x1="76" y1="112" x2="164" y2="112" stroke={line} strokeWidth="4" strokeLinecap="round" />
      {status === '404' && (
        <g stroke={brand} strokeWidth="5" strokeLinecap="round" fill={paper}>
          <circle cx="182" cy="118" r="16" />
          <line x1="194" y1="130" x2="208" y2="144" />
        </g>
      )}
      {status === '403' && (
        <g stroke={brand} strokeWidth="4" fill={paper}>
          <path d="M172 118v-8a10 10 0 0 1 20 0v8" fill="none" />
          <rect x="166" y="118" width="32" height="26" rx="4" />
          <circle cx="182" cy="131" r="3" fill={brand} stroke="none" />
        </g>
      )}
      {status === '500' && (
        <polyline
          points="160,112 172,128 182,116 194,136 206,124"
          fill="none"
          stroke={brand}
          strokeWidth="5"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      )}
    </svg>
  );
}
