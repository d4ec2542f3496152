/** Muted text dark enough for WCAG AA contrast on white (antd's secondary grey is too light). */
export const MUTED_COLOR = 'rgba(0, 0, 0, 0.65)';
