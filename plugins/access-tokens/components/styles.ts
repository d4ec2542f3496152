/** Muted text: antd's secondary text colour, which the theme keeps at WCAG AA contrast in either shade. */
export const MUTED_COLOR = 'var(--ant-color-text-secondary)';
